import Foundation
import HTTPCoreTesting
import HTTPTypes
import Testing

@testable import HTTPCore

/// A client on a scripted transport with the test clock, for unit tests.
func makeClient(
    _ transport: ScriptedTransport,
    baseURL: String = "https://api.example.com/v1",
    configure: (inout ClientConfiguration) -> Void = { _ in }
) throws -> Client {
    var configuration = ClientConfiguration(baseURL: try #require(URL(string: baseURL)), timeSource: TestClock())
    configure(&configuration)
    return try Client(configuration: configuration, transport: transport)
}

/// Runs `body` with a fresh, empty folder of its own under the temporary directory, and removes
/// the folder and everything in it afterwards, whatever `body` does.
func withTemporaryFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appending(path: "httpcore-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// Sends `count` GETs of `path` at once and waits for all of them, failing on the first error.
func sendConcurrently(_ count: Int, _ path: String, through client: Client) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<count {
            group.addTask { _ = try await client.send(Endpoint<JSONValue>(.get, path)) }
        }
        try await group.waitForAll()
    }
}

func header(_ name: String) -> HTTPField.Name {
    HTTPField.Name(name) ?? .contentType
}

/// Hooks that record every event name in order, for ordering assertions.
final class RecordingHooks: Hooks {
    let name: String
    let log: EventLog

    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }

    func operationStarted(_ event: OperationStartEvent) { log.append("\(name).operationStarted") }
    func operationEnded(_ event: OperationEndEvent) { log.append("\(name).operationEnded") }
    func requestStarted(_ event: RequestStartEvent) { log.append("\(name).requestStarted") }
    func requestEnded(_ event: RequestEndEvent) { log.append("\(name).requestEnded") }
    func retryScheduled(_ event: RetryEvent) { log.append("\(name).retryScheduled") }
}

/// A thread-safe list of strings.
final class EventLog: Sendable {
    private let storage = Locked<[String]>([])
    var entries: [String] { storage.withLock { $0 } }
    func append(_ entry: String) { storage.withLock { $0.append(entry) } }
}

/// A strategy whose every rejection asks for a replay after a (counted) renewal; with a token, it
/// sends it as a bearer credential.
struct RenewingAuth: AuthStrategy {
    var token: String?
    let renewals = Counter()
    var redactor: Redactor { Redactor() }

    func authorize(_ request: HTTPRequest, body: Data?, context: AuthContext) async throws -> AuthorizedRequest {
        var request = request
        if let token { request.headerFields[.authorization] = "Bearer \(token)" }
        return AuthorizedRequest(request: request, body: body)
    }

    func recover(
        from response: TransportResponse,
        authorized: AuthorizedRequest,
        context: AuthContext
    ) async throws -> AuthRecovery {
        renewals.increment()
        return .replay
    }
}
