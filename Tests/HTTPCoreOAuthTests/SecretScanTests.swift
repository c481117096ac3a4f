import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import Testing

/// Every sign-in secret, run through every flow with hooks watching, then searched for in
/// everything a user or a log could see: hook events, error descriptions and dumps, and the
/// descriptions and dumps of every value the flows hand back.
@Suite("Secrets never show")
struct SecretScanTests {
    static let clientSecret = "cs-7f3a9c1e5b"
    static let code = "code-4d2e8a6f0b"
    static let deviceCode = "dc-9b1c7e3a5d"
    static let accessToken = "at-2f8e4c6a0d"
    static let refreshToken = "rt-6a0c2e8f4b"
    static let newAccessToken = "at-new-5e7c9a1b3d"
    static let newRefreshToken = "rt-new-1d3b5f7a9c"

    /// Everything shown, collected.
    final class Exposure: Sendable {
        private let texts = Locked<[String]>([])
        var all: String { texts.withLock { $0.joined(separator: "\n") } }

        func show(_ value: Any) {
            var dumped = ""
            dump(value, to: &dumped)
            texts.withLock { $0 += [String(describing: value), String(reflecting: value), dumped] }
        }

        func run(_ body: () async throws -> Any) async {
            do {
                show(try await body())
            } catch {
                show(error)
                if let apiError = error as? APIError {
                    texts.withLock { $0 += [apiError.message, apiError.hint ?? "", apiError.localizedDescription] }
                    if let cause = apiError.cause { show(cause) }
                }
            }
        }
    }

    /// A server that quotes back whatever secret it was sent, in every error it gives.
    private static func echoing(
        _ secret: String,
        code: String = "invalid_grant",
        status: Int = 400
    ) -> ScriptedTransport.Step {
        oauthError(code, status: status, description: "rejected \(secret) (also \(clientSecret))")
    }

    @Test("No client secret, code, verifier, device code or token appears anywhere")
    func scan() async throws {
        let hooks = TranscriptHooks()
        let exposure = Exposure()
        var verifier = ""
        let clock = TestClock()
        let transport = ScriptedTransport(
            [
                Self.echoing(Self.code),
                .json([
                    "access_token": .string(Self.accessToken), "refresh_token": .string(Self.refreshToken),
                    "expires_in": 3600,
                ]),
                // The refresh inside RefreshingTokenAuth, after a 401.
                .status(401, body: "{}"),
                .json(["access_token": .string(Self.newAccessToken), "refresh_token": .string(Self.newRefreshToken)]),
                .json(["ok": true]),
                // A refused refresh that quotes the token.
                .status(401, body: "{}"),
                Self.echoing(Self.newRefreshToken),
                // The device flow.
                .json([
                    "device_code": .string(Self.deviceCode), "user_code": "ABCD-EFGH",
                    "verification_uri": "https://auth.example.com/device", "expires_in": 600, "interval": 5,
                ]),
                Self.echoing(Self.deviceCode, code: "authorization_pending"),
                Self.echoing(Self.deviceCode, code: "access_denied"),
                // A token answer that is malformed but carries a token.
                .json(["access_token": .string(Self.accessToken), "expires_in": -1]),
            ],
            clock: clock
        )
        let oauth = makeOAuth(
            transport,
            registration: confidentialClient.withSecret(Self.clientSecret),
            clock: clock,
            hooks: hooks
        )
        exposure.show(oauth)
        exposure.show(oauth.registration)

        let request = try oauth.authorizationRequest()
        verifier = request.pkce.verifier
        exposure.show(request)
        exposure.show(request.pkce)
        let callback = url("\(request.redirectURI.absoluteString)?code=\(Self.code)&state=\(request.state)")
        exposure.show(try request.authorizationCode(from: callback))
        await exposure.run { try await oauth.exchange(callback: callback, for: request) }
        await exposure.run { try await oauth.exchange(callback: callback, for: request) }

        let store = InMemoryCredentialStore(
            TokenCredentials(accessToken: Self.accessToken, refreshToken: Self.refreshToken)
        )
        let auth = oauth.refreshingAuth(store: store)
        exposure.show(auth)
        let client = try Client(
            configuration: ClientConfiguration(
                baseURL: url("https://api.example.com"),
                hooks: hooks,
                timeSource: clock,
                auth: auth
            ),
            transport: transport
        )
        await exposure.run { try await client.send(Endpoint<JSONValue>(.get, "me")) }
        exposure.show(await auth.credentials as Any)
        await exposure.run { try await client.send(Endpoint<JSONValue>(.get, "me")) }

        await exposure.run {
            try await oauth.deviceSignIn { update in exposure.show(update) }
        }
        await exposure.run {
            try await oauth.refresh(TokenCredentials(accessToken: "x", refreshToken: Self.refreshToken))
        }

        let seen = exposure.all + "\n" + hooks.transcript
        #expect(transport.remainingSteps == 0)
        #expect(seen.contains("[REDACTED]"))
        for secret in [
            Self.clientSecret, Self.code, Self.deviceCode, Self.accessToken, Self.refreshToken, Self.newAccessToken,
            Self.newRefreshToken, verifier,
        ] {
            #expect(!seen.contains(secret), "\(secret.prefix(3))… appeared")
        }
    }

    @Test("The OAuth redactor hides every secret parameter in URLs and forms")
    func redactor() {
        let redactor = Redactor().addingOAuthSecrets()
        let form =
            "grant_type=authorization_code&code=\(Self.code)&code_verifier=v1234&client_secret=\(Self.clientSecret)"
            + "&device_code=\(Self.deviceCode)&refresh_token=\(Self.refreshToken)&state=kept"
        let redacted = redactor.redact(formEncoded: form)
        #expect(
            redacted
                == "grant_type=authorization_code&code=[REDACTED]&code_verifier=[REDACTED]&client_secret=[REDACTED]"
                + "&device_code=[REDACTED]&refresh_token=[REDACTED]&state=kept"
        )
        #expect(
            redactor.redact(urlString: "http://127.0.0.1:1/callback?code=\(Self.code)&state=s")
                == "http://127.0.0.1:1/callback?code=[REDACTED]&state=s"
        )
        #expect(Redactor.scrub("a \(Self.code) b", removing: [Self.code, "ab"]) == "a [REDACTED] b")
    }
}

extension OAuthClientRegistration {
    func withSecret(_ secret: String) -> OAuthClientRegistration {
        var copy = self
        copy.clientSecret = secret
        return copy
    }
}
