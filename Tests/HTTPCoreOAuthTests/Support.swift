import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import HTTPTypes
import Testing

/// Waits until `sleepers` sleeps are pending on `clock`, moves it on by `interval`, and returns the
/// `APIError` that `task` then ends with (an issue is recorded when it ends any other way).
func apiError<Success: Sendable>(
    of task: Task<Success, any Error>,
    afterAdvancing clock: TestClock,
    by interval: Duration,
    sleepers: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> APIError? {
    await clock.waitForSleepers(sleepers)
    clock.advance(by: interval)
    let result = await task.result
    return #expect(throws: APIError.self, sourceLocation: sourceLocation) { try result.get() }
}

/// A URL from a literal the test controls.
func url(_ text: String) -> URL {
    URL(string: text) ?? URL(fileURLWithPath: "/invalid")
}

/// The server every unit test signs in to.
let standardServer = AuthorizationServer(
    issuer: "https://auth.example.com",
    authorizationEndpoint: url("https://auth.example.com/authorize"),
    tokenEndpoint: url("https://auth.example.com/token"),
    deviceAuthorizationEndpoint: url("https://auth.example.com/device")
)

/// The same server speaking the drafts' `type=…` spelling, as Launchpad does.
let legacyServer = AuthorizationServer(
    authorizationEndpoint: url("https://launchpad.example.com/authorization/new"),
    tokenEndpoint: url("https://launchpad.example.com/authorization/token"),
    tokenRequestStyle: .legacyType
)

let publicClient = OAuthClientRegistration(clientID: "app-id", redirectURI: url("http://127.0.0.1:8765/callback"))
let confidentialClient = OAuthClientRegistration(
    clientID: "app-id",
    clientSecret: "client-secret-XYZ",
    redirectURI: url("http://127.0.0.1:8765/callback")
)

/// An OAuth client on a scripted transport and test clock.
func makeOAuth(
    _ transport: ScriptedTransport,
    registration: OAuthClientRegistration = publicClient,
    server: AuthorizationServer = standardServer,
    clock: TestClock = TestClock(),
    hooks: any Hooks = NoopHooks()
) -> OAuthClient {
    OAuthClient(
        registration: registration,
        server: server,
        network: OAuthNetwork(
            transport: transport,
            timeSource: clock,
            userAgent: "Tests (tests@example.com)",
            hooks: hooks
        )
    )
}

/// A token answer.
func tokenAnswer(
    access: String = "access-1",
    refresh: String? = "refresh-1",
    expiresIn: Int? = 3600,
    extra: [String: JSONValue] = [:]
) -> ScriptedTransport.Step {
    var body: [String: JSONValue] = ["access_token": .string(access)]
    if let refresh { body["refresh_token"] = .string(refresh) }
    if let expiresIn { body["expires_in"] = .integer(expiresIn) }
    for (key, value) in extra { body[key] = value }
    return .json(.object(body))
}

/// An OAuth error answer.
func oauthError(
    _ code: String,
    status: Int = 400,
    description: String? = nil,
    headers: HTTPFields = [:]
) -> ScriptedTransport.Step {
    var body: [String: JSONValue] = ["error": .string(code)]
    if let description { body["error_description"] = .string(description) }
    return .json(.object(body), status: status, headers: headers)
}

extension ScriptedTransport.RecordedRequest {
    /// The form body's fields, in order, decoded.
    var form: [(String, String)] {
        (bodyText ?? "").split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    /// The value of one form field.
    func field(_ name: String) -> String? { form.first { $0.0 == name }?.1 }

    /// The form's field names, in order.
    var fieldNames: [String] { form.map(\.0) }
}

/// Hooks that keep a text rendering of every event, to scan for secrets.
final class TranscriptHooks: Hooks {
    private let lines = Locked<[String]>([])

    var transcript: String { lines.withLock { $0.joined(separator: "\n") } }

    private func record(_ value: Any) {
        var text = ""
        dump(value, to: &text)
        lines.withLock { $0.append(text + String(describing: value)) }
    }

    func operationStarted(_ event: OperationStartEvent) { record(event) }
    func operationEnded(_ event: OperationEndEvent) { record(event) }
    func requestStarted(_ event: RequestStartEvent) { record(event) }
    func requestEnded(_ event: RequestEndEvent) { record(event) }
    func retryScheduled(_ event: RetryEvent) { record(event) }
    func auth(_ event: AuthEvent) { record(event) }
}
