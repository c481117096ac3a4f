public import APISandbox
public import Foundation
import HTTPTypes
public import Hummingbird

/// The Monash schedule API, played by the loopback ``APISandbox/Sandbox``.
///
/// Mount it next to other modules; it answers `GET {basePath}/schedules` with a week from
/// `Spec/MonashSchedule`:
///
/// ```swift
/// let sandbox = try await Sandbox.start(configuration: SandboxConfiguration(modules: [MonashSandboxModule()]))
/// let baseURL = sandbox.baseURL.appending(path: MonashSandboxModule.defaultBasePath)
/// ```
///
/// A request picks the week with the `week` query parameter or the `X-Sandbox-Week` header
/// (`sample` or `large`; the query wins); without either it gets ``defaultWeek``. Any other
/// choice answers `400`. Every answer carries an `X-Request-Id`. Requests pass through the
/// sandbox's counters and fault injection like the built-in routes.
///
/// Given a clock (`today`), the week's dates follow it (see
/// ``Week/payload(following:campusZone:)``), so "what is next" always has an answer; without
/// one, the payloads are served as published.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct MonashSandboxModule: SandboxModule {
    /// The weeks the sandbox can serve, both straight from the Spec's example payloads.
    public enum Week: String, Sendable, Hashable, CaseIterable {
        /// The documented sample: week 8, one class, one car park, one bus (`sample-week.json`).
        case sample
        /// A busier week across campuses, car parks and a day of buses (`large-week.json`).
        case large

        /// The JSON body served for this week, byte for byte the Spec's example.
        public var payload: String {
            switch self {
            case .sample: return MonashSpecPayloads.sampleWeek
            case .large: return MonashSpecPayloads.largeWeek
            }
        }
    }

    /// Where the API is mounted unless told otherwise.
    public static let defaultBasePath = "/monash"
    /// The name of the header that picks a week when a client cannot add a query.
    public static let weekHeader = "X-Sandbox-Week"

    /// The path prefix of every route, e.g. `/monash`.
    public let basePath: String
    /// The week answered when a request does not choose one.
    public let defaultWeek: Week
    /// The clock the weeks' dates follow; `nil` serves them as published.
    public let today: (@Sendable () -> Date)?
    /// The zone the payloads' times are read in when they follow ``today``: the campus's, which
    /// decides when "this week" has ended.
    public let timeZone: TimeZone
    /// The zone the payloads' times are written in: Melbourne, where Monash is.
    public static let campusZone =
        TimeZone(identifier: "Australia/Melbourne") ?? TimeZone(secondsFromGMT: 36_000) ?? .gmt

    /// Creates the module.
    ///
    /// - Parameters:
    ///   - basePath: The path prefix; several copies can be mounted under different prefixes.
    ///   - defaultWeek: The week answered when a request does not choose one.
    ///   - today: A clock the weeks' dates follow, so the classes are this week's (or next
    ///     week's, once this week's last class has ended); `nil` serves the payloads as published.
    ///   - timeZone: The campus's zone, in which the payloads' wall times are read when they
    ///     follow `today`: Melbourne unless the client reads them in another.
    public init(
        basePath: String = defaultBasePath,
        defaultWeek: Week = .sample,
        today: (@Sendable () -> Date)? = nil,
        timeZone: TimeZone = campusZone
    ) {
        self.basePath = basePath
        self.defaultWeek = defaultWeek
        self.today = today
        self.timeZone = timeZone
    }

    /// The body for `week`, with its dates following ``today`` when a clock is set.
    public func body(for week: Week) -> String {
        guard let today else { return week.payload }
        return week.payload(following: today(), campusZone: timeZone)
    }

    /// Adds `GET {basePath}/schedules`.
    public func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        let defaultWeek = defaultWeek
        let module = self
        router.group(RouterPath(basePath)).get("schedules") { request, _ -> Response in
            let requestID = "monash-\(state.counters().totalRequests)"
            let choice =
                request.uri.queryParameters.get("week")
                ?? request.headers.first { $0.name.canonicalName == Self.weekHeader.lowercased() }?.value
            guard let choice else {
                return Self.json(module.body(for: defaultWeek), status: .ok, requestID: requestID)
            }
            guard let week = Week(rawValue: choice.lowercased()) else {
                let known = Week.allCases.map(\.rawValue).joined(separator: ", ")
                let message = "Unknown week '\(choice.prefix(40))'; choose one of: \(known)."
                let body = (try? JSONEncoder().encode(["error": message])).map { String(decoding: $0, as: UTF8.self) }
                return Self.json(body ?? "{}", status: .badRequest, requestID: requestID)
            }
            return Self.json(module.body(for: week), status: .ok, requestID: requestID)
        }
    }

    private static func json(_ text: String, status: HTTPResponse.Status, requestID: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if let name = HTTPField.Name("X-Request-Id") { headers[name] = requestID }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

}
