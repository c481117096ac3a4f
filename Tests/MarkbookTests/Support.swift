import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Markbook
import MarkbookSandbox
import Testing

/// The one account every test uses, so the leak checks know what to look for.
enum TestAccount {
    static let apiKey = "TESTKEYa1b2c3d4e5f6a7b8c9d0e1f2a"
    static let username = "test.admin"
    static let password = "pw-Correct-Horse-7"

    @available(macOS 14, iOS 17, tvOS 17, *)
    static var account: MarkbookSandboxModule.Account {
        MarkbookSandboxModule.Account(apiKey: apiKey, username: username, password: password)
    }
}

let exampleBaseURL = URL(string: "https://smpcsonline.com.au/markbook/api/v1.5") ?? URL(fileURLWithPath: "/")

/// Finds secrets in anything the SDK shows: the API key, the password and every session value
/// a server handed out. Every test routes what it sees through ``expectNone(in:sessions:)``;
/// ``LeakTests`` sweeps every kind of call and failure on purpose.
enum Leaks {
    static func found(in text: String, sessions: [String]) -> [String] {
        var hits: [String] = []
        if text.contains(TestAccount.apiKey) { hits.append("API key") }
        if text.contains(TestAccount.password) { hits.append("password") }
        for value in sessions where value.count >= 4 && text.contains(value) { hits.append("session value") }
        return hits
    }

    static func expectNone(
        in text: String,
        sessions: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let hits = found(in: text, sessions: sessions)
        #expect(hits.isEmpty, "secret shown: \(hits.joined(separator: ", "))", sourceLocation: sourceLocation)
    }

    /// Everything an error can show: its description, message, hint, raw status and a full dump.
    static func render(_ error: any Error) -> String {
        var text = "\(error)\n\(String(reflecting: error))\n"
        if let error = error as? APIError {
            text += [error.message, error.hint ?? "", error.details.rawStatus ?? "", error.localizedDescription]
                .joined(separator: "\n")
        }
        dump(error, to: &text)
        return text
    }

    /// Everything a value shows when printed or dumped.
    static func render(_ value: Any) -> String {
        var text = "\(value)\n\(String(reflecting: value))\n"
        dump(value, to: &text)
        return text
    }
}

/// ``expectAPIError(_:_:sourceLocation:isolation:performing:)`` for Markbook calls: the error
/// must have `code` (when given) and must not show the account's secrets or any of `sessions`.
@discardableResult
func expectMarkbookError(
    _ code: APIError.Code? = nil,
    _ comment: Comment? = nil,
    sessions: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async -> APIError? {
    let error = await expectAPIError(code, comment, sourceLocation: sourceLocation, performing: body)
    if let error {
        Leaks.expectNone(in: Leaks.render(error), sessions: sessions, sourceLocation: sourceLocation)
    }
    return error
}

/// Hooks that keep every event as text (for leak scans) and the auth events typed.
final class EventRecorder: Hooks {
    private let storage = Locked<(texts: [String], auth: [AuthEvent], retries: Int, attempts: Int)>(([], [], 0, 0))

    var texts: [String] { storage.withLock { $0.texts } }
    var authEvents: [AuthEvent] { storage.withLock { $0.auth } }
    var retries: Int { storage.withLock { $0.retries } }
    var attempts: Int { storage.withLock { $0.attempts } }
    var transcript: String { texts.joined(separator: "\n") }

    private func keep(_ event: Any) {
        let text = Leaks.render(event)
        storage.withLock { $0.texts.append(text) }
    }

    func operationStarted(_ event: OperationStartEvent) { keep(event) }
    func operationEnded(_ event: OperationEndEvent) { keep(event) }
    func requestStarted(_ event: RequestStartEvent) {
        keep(event)
        storage.withLock { $0.attempts += 1 }
    }
    func requestEnded(_ event: RequestEndEvent) { keep(event) }
    func retryScheduled(_ event: RetryEvent) {
        keep(event)
        storage.withLock { $0.retries += 1 }
    }
    func auth(_ event: AuthEvent) {
        keep(event)
        storage.withLock { $0.auth.append(event) }
    }
}

/// A client on a scripted transport and a test clock.
func scriptedClient(
    _ transport: ScriptedTransport,
    clock: TestClock = TestClock(),
    hooks: (any Hooks)? = nil,
    configure: (inout ClientConfiguration) -> Void = { _ in }
) throws -> MarkbookClient {
    var configuration = ClientConfiguration(baseURL: exampleBaseURL, timeSource: clock)
    if let hooks { configuration.hooks = hooks }
    configure(&configuration)
    return try MarkbookClient(
        apiKey: TestAccount.apiKey,
        username: TestAccount.username,
        password: TestAccount.password,
        configuration: configuration,
        transport: transport
    )
}

/// A JSON answer in the API's envelope.
func envelope(_ action: String, status: String = "OKAY", _ extra: [String: JSONValue] = [:]) -> JSONValue {
    var members: [String: JSONValue] = [
        "source": "Markbook Online", "api": .string(exampleBaseURL.absoluteString), "seconds": 1_718_333_912,
        "date": "Fri, 14 Jun 2024 12:58:32 +1000", "schoolname": "Sandbox Secondary College",
        "action": .string(action), "status": .string(status),
    ]
    members.merge(extra) { _, new in new }
    return .object(members)
}

/// The answer to a successful login.
let loginOK = ScriptedTransport.Step.json(
    envelope("authenticate", ["sessiontoken": "st-0a1b2c3d4e5f", "sessionkey": 918_273_645])
)
let scriptedSessionValues = ["st-0a1b2c3d4e5f", "918273645"]

/// The sandbox's logic answering a scripted transport in-process: the same API as over HTTP,
/// but on the test clock with no sockets.
@available(macOS 14, iOS 17, tvOS 17, *)
func sandboxHandler(
    _ module: MarkbookSandboxModule,
    before: (@Sendable (ScriptedTransport.RecordedRequest) async -> Void)? = nil
) -> @Sendable (ScriptedTransport.RecordedRequest) async throws -> TransportResponse {
    { recorded in
        await before?(recorded)
        let base = exampleBaseURL.path
        var path = recorded.url.path
        if path.hasPrefix(base) { path = String(path.dropFirst(base.count)) }
        path = String(path.drop { $0 == "/" })
        let answer = module.respond(
            to: MarkbookSandboxRequest(
                method: recorded.request.method.rawValue,
                path: path,
                rawQuery: URLComponents(url: recorded.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery,
                body: Array(recorded.body ?? Data()),
                apiAddress: exampleBaseURL.absoluteString
            )
        )
        var headers = HTTPFields()
        headers[.contentType] = answer.contentType
        return TransportResponse(
            response: HTTPResponse(status: .init(code: answer.status), headerFields: headers),
            body: Data(answer.body),
            url: recorded.url
        )
    }
}

/// A loopback sandbox with the Markbook module on `clock`, and clients for it.
@available(macOS 14, iOS 17, tvOS 17, *)
struct SandboxHarness {
    let sandbox: Sandbox
    let module: MarkbookSandboxModule
    let clock: TestClock

    var baseURL: URL { sandbox.baseURL.appending(path: MarkbookSandboxModule.defaultBasePath) }

    /// A client over real HTTP (URLSession) on the harness's clock.
    func client(
        hooks: (any Hooks)? = nil,
        clock: TestClock? = nil,
        password: String = TestAccount.password,
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) throws -> MarkbookClient {
        var configuration = ClientConfiguration(baseURL: baseURL, timeSource: clock ?? self.clock)
        if let hooks { configuration.hooks = hooks }
        configure(&configuration)
        return try MarkbookClient(
            apiKey: TestAccount.apiKey,
            username: TestAccount.username,
            password: password,
            configuration: configuration
        )
    }

    var sessions: [String] { module.issuedSessionValues() }

    static func run(
        clock: TestClock = TestClock(start: Date(timeIntervalSince1970: 1_718_333_912)),
        _ body: (SandboxHarness) async throws -> Void
    ) async throws {
        let module = MarkbookSandboxModule(account: TestAccount.account, now: { clock.now() })
        try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [module])) { sandbox in
            try await body(SandboxHarness(sandbox: sandbox, module: module, clock: clock))
        }
    }

    /// Runs `body` with a harness and the default client for it.
    static func withClient(_ body: (SandboxHarness, MarkbookClient) async throws -> Void) async throws {
        try await run { harness in try await body(harness, try harness.client()) }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }

    @discardableResult
    func increment() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
}

extension MarkbookClient {
    /// Adds Aanya Patel (student id 100399) to class 10MAT1-B of markbook 1000001, the student
    /// several tests create, and returns her key.
    func createAanyaPatel() async throws -> Int {
        try await createStudent(
            markbookKey: 1_000_001,
            sid: "100399",
            familyName: "Patel",
            givenName: "Aanya",
            preferredName: "",
            gender: .female,
            classKey: 3002
        )
    }

    /// Sets Olivia Adams's (student 5001, id 100234) Algebra test result (task 4001) in markbook
    /// 1000001, the cell several tests write.
    func putOliviaAlgebraResult(_ result: String) async throws {
        try await putStudentResult(
            markbookKey: 1_000_001,
            studentKey: 5001,
            sid: "100234",
            taskKey: 4001,
            taskName: "Algebra test",
            result: result
        )
    }
}
