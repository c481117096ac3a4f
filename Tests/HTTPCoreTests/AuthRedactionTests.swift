import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// Runs every strategy through success and failure paths — including a refresh endpoint that
/// quotes the rejected refresh token in its error body — and scans everything the client shows
/// for the secrets.
///
/// API responses themselves do not echo credentials here: an error body's text becomes the
/// error message by design (the standard error table), so a server quoting a credential in
/// its message is outside what a client can hide.
@Suite("Auth: no secret is ever shown")
struct AuthRedactionTests {
    /// Every secret the scenarios use; each is distinctive so a hit cannot be a coincidence.
    private static let secrets = [
        "bearer-SECRET-b1", "basic-PASSWORD-p1", "header-APIKEY-k1", "query-APIKEY-k2", "provider-TOKEN-t1",
        "access-SECRET-a1", "refresh-SECRET-r1", "access-SECRET-a2", "refresh-SECRET-r2",
        "session-PASSWORD-p2", "session-TOKEN-s1", "session-KEY-s2", "session-APIKEY-s3",
    ]
    /// Basic credentials travel base64-encoded; the encoded form is a secret too.
    private static let basicEncoded = Data("user:basic-PASSWORD-p1".utf8).base64EncodedString()

    private struct Provider: TokenProvider {
        func currentToken() async throws -> String { "provider-TOKEN-t1" }
    }

    /// A 401 without details.
    private static func rejection(_ request: ScriptedTransport.RecordedRequest) -> TransportResponse {
        reply(request, status: 401, json: ["error": "expired"])
    }

    /// A token or login endpoint refusing with a body that quotes the request, credentials
    /// included.
    private static func echoingRefusal(_ request: ScriptedTransport.RecordedRequest) -> TransportResponse {
        let quoted = "\(request.url.absoluteString) \(request.request.headerFields) \(request.bodyText ?? "")"
        return reply(
            request,
            status: 400,
            json: ["error": .string("invalid_grant: \(quoted)"), "echo": .string(quoted)]
        )
    }

    private static func strategies() -> [(String, any AuthStrategy, ScriptedTransport)] {
        let refreshing = RefreshingTokenAuth(
            credentials: TokenCredentials(accessToken: "access-SECRET-a1", refreshToken: "refresh-SECRET-r1"),
            refresh: RefreshEndpoint(path: "oauth/token")
        )
        let refreshingOK = RefreshingTokenAuth(
            credentials: TokenCredentials(accessToken: "access-SECRET-a1", refreshToken: "refresh-SECRET-r1"),
            refresh: RefreshEndpoint(path: "oauth/token")
        )
        let refreshOK = ScriptedTransport { request in
            if request.url.path.hasSuffix("/oauth/token") {
                return reply(
                    request,
                    json: ["access_token": "access-SECRET-a2", "refresh_token": "refresh-SECRET-r2", "expires_in": 60]
                )
            }
            return request.header("Authorization") == "Bearer access-SECRET-a2"
                ? reply(request, status: 404, json: ["error": "no such item"]) : rejection(request)
        }
        let session = SessionLoginAuth(
            valueNames: ["sessiontoken", "sessionkey", "apikey"],
            secretNames: ["apipassword"]
        ) { context in
            let response = try await context.send(
                .post,
                "authenticate.lc",
                body: .form(["apiuser": "teacher", "apipassword": "session-PASSWORD-p2"])
            )
            guard response.response.status.code == 200 else {
                throw APIError.authRequired(APIError.Details(message: "The login was refused.", httpStatus: 401))
            }
            return SessionLoginAuth.Session([
                "sessiontoken": "session-TOKEN-s1", "sessionkey": "session-KEY-s2", "apikey": "session-APIKEY-s3",
            ])
        }
        let sessionThenReject = ScriptedTransport { request in
            request.url.path.hasSuffix("/authenticate.lc") ? reply(request) : rejection(request)
        }
        return [
            ("bearer", BearerTokenAuth(token: "bearer-SECRET-b1"), ScriptedTransport { rejection($0) }),
            ("basic", BasicAuth(username: "user", password: "basic-PASSWORD-p1"), ScriptedTransport { rejection($0) }),
            (
                "header key", APIKeyAuth(name: "X-API-Key", value: "header-APIKEY-k1"),
                ScriptedTransport { rejection($0) }
            ),
            (
                "query key", APIKeyAuth(name: "key", value: "query-APIKEY-k2", placement: .query),
                ScriptedTransport { rejection($0) }
            ),
            ("provider", TokenProviderAuth(Provider()), ScriptedTransport { rejection($0) }),
            (
                "refresh rejected", refreshing,
                ScriptedTransport { $0.url.path.hasSuffix("/oauth/token") ? echoingRefusal($0) : rejection($0) }
            ),
            ("refresh ok", refreshingOK, refreshOK),
            ("session", session, sessionThenReject),
            (
                "session refused",
                SessionLoginAuth(valueNames: ["sessiontoken"], secretNames: ["apipassword"]) { context in
                    _ = try await context.send(.post, "login", body: .form(["apipassword": "session-PASSWORD-p2"]))
                    throw APIError.authRequired(APIError.Details(message: "refused"))
                },
                ScriptedTransport { echoingRefusal($0) }
            ),
        ]
    }

    @Test("Error descriptions, hook payloads and request descriptions contain no credential")
    func scan() async throws {
        var shown: [String] = []
        var requestsSent = 0
        for (name, strategy, transport) in Self.strategies() {
            let recorder = AuthHookRecorder()
            var configuration = ClientConfiguration(
                baseURL: try #require(URL(string: "https://api.example.com/v1")),
                timeSource: TestClock()
            )
            configuration.auth = strategy
            configuration.hooks = recorder
            let client = try Client(configuration: configuration, transport: transport)
            for endpoint in [
                Endpoint<JSONValue>(.get, "items", query: ["page": 1]),
                Endpoint<JSONValue>(.post, "items", body: .form(["name": "x"])),
                Endpoint<JSONValue>(.get, "items"),  // after sign-in-required: the fail-fast error
            ] {
                do {
                    _ = try await client.send(endpoint)
                    Issue.record("\(name): expected the call to fail")
                } catch {
                    shown += [String(describing: error), String(reflecting: error), error.localizedDescription]
                    shown.append(dumped(error))
                    if let apiError = error as? APIError {
                        shown += [apiError.message, apiError.hint ?? ""]
                        shown.append(apiError.cause.map { String(describing: $0) } ?? "")
                    }
                }
            }
            shown += recorder.dumps
            let redactor = configuration.redactor.merging(strategy.redactor)
            for sent in transport.requests {
                shown.append(redactor.describe(sent.request))
                shown.append(dumped(redactor.redact(sent.request.headerFields)))
                shown.append(redactor.redact(formEncoded: sent.bodyText ?? ""))
            }
            requestsSent += transport.requests.count
            shown += [String(describing: strategy), dumped(strategy), dumped(configuration)]
        }

        // The scenarios really sent credentials, so the scan is meaningful.
        #expect(requestsSent >= 20)
        let allShown = shown.joined(separator: "\n")
        #expect(allShown.contains(Redactor.placeholder))
        for secret in Self.secrets + [Self.basicEncoded] {
            #expect(!allShown.contains(secret), "\(secret) was shown")
        }
    }

    @Test("The scan would notice a leak: an unregistered query credential shows up")
    func scanCanFail() async throws {
        struct Leaky: AuthStrategy {
            var redactor: Redactor { Redactor() }
            func authorize(_ request: HTTPRequest, body: Data?, context: AuthContext) async throws -> AuthorizedRequest
            {
                var authorized = AuthorizedRequest(request: request, body: body)
                try authorized.add("token", "leak-SECRET", placement: .query)
                return authorized
            }
        }
        let recorder = AuthHookRecorder()
        let transport = ScriptedTransport { reply($0) }
        let client = try makeClient(transport) {
            $0.auth = Leaky()
            $0.hooks = recorder
        }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(recorder.dumps.joined().contains("leak-SECRET"))
    }
}
