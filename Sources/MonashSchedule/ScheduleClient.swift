public import Foundation
public import HTTPCore

/// The Monash schedule API: one read-only call that answers a student's week.
///
/// The API's original host is gone, so there is no default base URL: pass your deployment's, or a
/// sandbox's (`MonashSandboxModule` serves this API under `/monash`).
///
/// ```swift
/// let client = try ScheduleClient(baseURL: URL(string: "https://schedule.example.edu")!)
/// let week = try await client.timetable()
/// print(week.classes.count, "classes in week", week.week)
/// ```
///
/// Every failure is an ``HTTPCore/APIError``: an HTTP 500 or a malformed payload is `api_error`
/// (exit code 7 in the `monash` command), with a message that names the key path that failed to
/// decode, such as `schedules[0].start_time`.
public struct ScheduleClient: Sendable {
    /// Australia/Melbourne, where every campus is and whose wall-clock times the API sends.
    ///
    /// Falls back to a fixed UTC+10 only on a system without time-zone data.
    public static let defaultTimeZone: TimeZone =
        TimeZone(identifier: "Australia/Melbourne") ?? TimeZone(secondsFromGMT: 36_000) ?? .gmt

    /// The HTTP client the calls go through, shared with anything else built on it.
    public let client: Client
    /// The zone the API's zone-less times are read in.
    public let timeZone: TimeZone

    /// Creates a client for the API at `baseURL` with HTTPCore's defaults.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` when the URL is not https (loopback may use http).
    public init(
        baseURL: URL,
        timeZone: TimeZone = ScheduleClient.defaultTimeZone,
        transport: any HTTPTransport = URLSessionTransport.shared
    ) throws {
        try self.init(configuration: ClientConfiguration(baseURL: baseURL), timeZone: timeZone, transport: transport)
    }

    /// Creates a client from a full configuration: retry, timeouts, hooks, the clock.
    ///
    /// - Parameter transport: Where requests go; tests pass HTTPCoreTesting's `ScriptedTransport`.
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` when the base URL is not acceptable.
    public init(
        configuration: ClientConfiguration,
        timeZone: TimeZone = ScheduleClient.defaultTimeZone,
        transport: any HTTPTransport = URLSessionTransport.shared
    ) throws {
        self.init(client: try Client(configuration: configuration, transport: transport), timeZone: timeZone)
    }

    /// Creates a client on an existing HTTP client.
    public init(client: Client, timeZone: TimeZone = ScheduleClient.defaultTimeZone) {
        self.client = client
        self.timeZone = timeZone
    }

    /// Fetches the student's week.
    ///
    /// - Throws: ``HTTPCore/APIError``; `api_error` for a server failure or a malformed payload.
    public func timetable() async throws -> Timetable {
        try await client.send(Self.getSchedules(timeZone: timeZone))
    }

    /// Fetches the week with the response's status, headers and request id.
    ///
    /// - Throws: ``HTTPCore/APIError``, as ``timetable()`` does.
    public func timetableResponse() async throws -> Response<Timetable> {
        try await client.response(Self.getSchedules(timeZone: timeZone))
    }

    /// The operation's metadata, as the Spec names it (`getSchedules`).
    public static let getSchedulesOperation = OperationMetadata(
        name: "GetSchedules",
        service: "schedules",
        idempotent: true
    )

    /// The endpoint behind ``timetable()``, for sending through a `Client` of your own.
    public static func getSchedules(timeZone: TimeZone = ScheduleClient.defaultTimeZone) -> Endpoint<Timetable> {
        Endpoint(
            .get,
            "schedules",
            operation: getSchedulesOperation,
            decoder: ResponseDecoder { body, _, _ in try Timetable.decodeWire(body, timeZone: timeZone) }
        )
    }
}
