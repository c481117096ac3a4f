import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import Testing

@Suite("Token answers are checked strictly")
struct TokenResponseTests {
    private let code = AuthorizationCode(code: "c", redirectURI: url("http://127.0.0.1/cb"), codeVerifier: "v")

    /// Every malformed answer the reference lists, and a few more, as raw JSON bodies.
    static let malformed: [String] = [
        #"{}"#,
        #"{"access_token": ""}"#,
        #"{"access_token": 42}"#,
        #"{"access_token": null}"#,
        #"{"access_token": "a", "expires_in": 3600.5}"#,
        #"{"access_token": "a", "expires_in": -1}"#,
        #"{"access_token": "a", "expires_in": 0}"#,
        #"{"access_token": "a", "expires_in": 1e300}"#,
        #"{"access_token": "a", "expires_in": 400000000}"#,
        #"{"access_token": "a", "expires_in": "soon"}"#,
        #"{"access_token": "a", "refresh_token": 7}"#,
        #"{"access_token": "a", "refresh_token": ""}"#,
        #"{"access_token": "a", "scope": ["read"]}"#,
        #"{"access_token": "a", "resource": ""}"#,
        #"{"access_token": "a", "resource": {"id": 1}}"#,
        #"{"access_token": "a", "token_type": ""}"#,
        #"{"access_token": "a", "token_type": "mac"}"#,
        #"["access_token"]"#,
        "not json",
        "",
    ]

    @Test("A malformed 200 is an api_error naming the field, never a token", arguments: malformed)
    func malformedAnswer(body: String) async {
        let oauth = makeOAuth(
            ScriptedTransport([
                .respond(status: 200, headers: [.contentType: "application/json"], body: Data(body.utf8))
            ])
        )
        let error = await caughtAPIError { _ = try await oauth.exchange(code) }
        #expect(error?.code == .apiError)
        #expect(error?.message.hasPrefix("The token endpoint's answer is not a usable token") == true)
    }

    @Test("A token with any other 2xx status is not a token")
    func otherSuccessStatus() async {
        let oauth = makeOAuth(ScriptedTransport([.json(["access_token": "a"], status: 201)]))
        #expect(await caughtAPIError { _ = try await oauth.exchange(code) }?.code == .apiError)
    }

    @Test("A minimal answer, Launchpad's shape, and a full standard one all decode")
    func wellFormed() async throws {
        let clock = TestClock()
        let bodies: [JSONValue] = [
            ["access_token": "a"],
            ["access_token": "a", "refresh_token": "r", "expires_in": 1_209_600],
            [
                "access_token": "a", "refresh_token": "r", "expires_in": 3600.0, "token_type": "bearer",
                "scope": "", "resource": "urn:bc:account:9", "extra": ["ignored": true],
            ],
            ["access_token": "a", "refresh_token": nil, "scope": nil],
        ]
        for body in bodies {
            let oauth = makeOAuth(ScriptedTransport([.json(body)]), clock: clock)
            let credentials = try await oauth.exchange(code)
            #expect(credentials.accessToken == "a")
            #expect(credentials.refreshToken == body["refresh_token"]?.stringValue)
            #expect(credentials.resource == body["resource"]?.stringValue)
            if let seconds = body["expires_in"]?.intValue {
                #expect(credentials.expiresAt == clock.now().addingTimeInterval(TimeInterval(seconds)))
            } else {
                #expect(credentials.expiresAt == nil)
            }
        }
    }

    @Test("429 is rate_limit with the server's Retry-After; a 5xx keeps its OAuth code")
    func transient() async {
        let limited = makeOAuth(ScriptedTransport([oauthError("slow_down", status: 429, headers: [.retryAfter: "30"])]))
        let error = await caughtAPIError { _ = try await limited.exchange(code) }
        #expect(error?.code == .rateLimit)
        #expect(error?.details.retryAfter == .seconds(30))
        let failing = makeOAuth(ScriptedTransport([oauthError("temporarily_unavailable", status: 503)]))
        let failure = await caughtAPIError { _ = try await failing.exchange(code) }
        #expect(failure?.code == .apiError)
        #expect(failure?.isRetryable == true)
        #expect(failure?.oauthErrorCode == .temporarilyUnavailable)
    }

    @Test("An error description that quotes the code it was sent shows it redacted")
    func descriptionScrubbed() async {
        let oauth = makeOAuth(
            ScriptedTransport([oauthError("invalid_grant", description: "Code secret-code-123 was already used\n")])
        )
        let error = await caughtAPIError {
            _ = try await oauth.exchange(
                AuthorizationCode(code: "secret-code-123", redirectURI: url("http://127.0.0.1/cb"), codeVerifier: "v")
            )
        }
        #expect(error?.message.contains("secret-code-123") == false)
        #expect(error?.message.contains("Code [REDACTED] was already used") == true)
        #expect(error?.message.contains("\n") == false)
    }

    @Test("A free-text error code is not repeated, nor read as a refused grant")
    func freeTextCode() async {
        let oauth = makeOAuth(ScriptedTransport([oauthError("Your token abc123 is bad")]))
        let error = await caughtAPIError { _ = try await oauth.exchange(code) }
        #expect(error?.code == .apiError)
        #expect(error?.oauthErrorCode == nil)
        #expect(error?.message.contains("abc123") == false)
    }
}
