import APISandbox
import BasecampSandbox
import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPTypes
import Testing

extension SignInSandboxTests {
    /// Sends `path` (GET, or POST with `form`) to the sandbox as a client would, with `agent` as
    /// the User-Agent; returns the status, the body and any Location.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func raw(
        _ sandbox: Sandbox,
        _ path: String,
        form: String? = nil,
        agent: String = Self.agent,
        basic: String? = nil
    ) async throws -> (status: Int, body: String, location: String?) {
        var components = try #require(URLComponents(url: sandbox.baseURL, resolvingAgainstBaseURL: false))
        let (route, query) = (
            path.split(separator: "?").first.map(String.init) ?? path, path.split(separator: "?").dropFirst().first
        )
        components.path += "/" + route
        components.percentEncodedQuery = query.map(String.init)
        var request = HTTPRequest(method: form == nil ? .get : .post, url: try #require(components.url))
        if form != nil { request.headerFields[.contentType] = "application/x-www-form-urlencoded" }
        // Empty rather than absent, which URLSession would fill with its own.
        request.headerFields[.userAgent] = agent
        if let basic { request.headerFields[.authorization] = "Basic " + Data(basic.utf8).base64EncodedString() }
        let answer = try await URLSessionTransport().send(
            request,
            body: form.map { Data($0.utf8) },
            options: TransportOptions()
        )
        let location = answer.response.headerFields[.location]
        return (answer.response.status.code, String(decoding: answer.body, as: UTF8.self), location)
    }

    /// The code in an authorize answer's redirect.
    static func code(in location: String?) throws -> String {
        let items = URLComponents(string: try #require(location))?.queryItems ?? []
        return try #require(items.first { $0.name == "code" }?.value)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A verifier for a code issued without a challenge, and a token for another resource, are refused")
    func downgradeAndResource() async throws {
        try await withAuthSandbox { sandbox, _ in
            let redirect = "http://127.0.0.1:9/cb"
            // Launchpad, authorized without PKCE: a verifier at the token endpoint is a downgrade.
            let plain = try await raw(
                sandbox,
                "launchpad/authorization/new?type=web_server&client_id=app&redirect_uri=\(redirect)&state=s"
            )
            let downgrade = try await raw(
                sandbox,
                "launchpad/authorization/token",
                form: "type=web_server&client_id=app&client_secret=x&redirect_uri=\(redirect)&code="
                    + (try Self.code(in: plain.location)) + "&code_verifier=" + PKCE().verifier
            )
            #expect(downgrade.status == 400)
            #expect(downgrade.body.contains("\"invalid_grant\""))

            // The resource-first server, authorized for account 1 in a browser, which names no contact
            // and need not: a token for account 2 is not issued.
            let pkce = PKCE()
            let approved = try await raw(
                sandbox,
                "oauth/authorize?response_type=code&client_id=app&redirect_uri=\(redirect)&state=s"
                    + "&code_challenge=\(pkce.challenge)&code_challenge_method=S256&resource=urn:bc:account:1",
                agent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
            )
            #expect(approved.status == 302)
            let elsewhere = try await raw(
                sandbox,
                "oauth/token",
                form: "grant_type=authorization_code&client_id=app&redirect_uri=\(redirect)&code_verifier="
                    + pkce.verifier + "&resource=urn:bc:account:2&code=" + (try Self.code(in: approved.location))
            )
            #expect(elsewhere.status == 400)
            #expect(elsewhere.body.contains("\"invalid_target\""))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Two client authentication methods in one request, and a discovery request without a User-Agent, are refused")
    func oneAuthenticationMethodAndAgent() async throws {
        try await withAuthSandbox { sandbox, _ in
            let both = try await raw(
                sandbox,
                "launchpad/authorization/token",
                form: "type=refresh&refresh_token=r&client_secret=x&redirect_uri=http://127.0.0.1:9/cb",
                basic: "app:x"
            )
            #expect(both.status == 401)
            #expect(both.body.contains("\"invalid_client\""))
            let anonymous = try await raw(sandbox, ".well-known/oauth-protected-resource", agent: "")
            #expect(anonymous.status == 400)
            #expect(anonymous.body.contains("\"invalid_request\""))
            let noContact = try await raw(sandbox, ".well-known/oauth-protected-resource", agent: "MyApp/1.0")
            #expect(noContact.status == 400)
            #expect(try await raw(sandbox, ".well-known/oauth-protected-resource").status == 200)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A client registered with a redirect URI signs in and refreshes through that URI only, as on Launchpad")
    func registeredRedirectURI() async throws {
        let registered = "http://127.0.0.1:8765/callback"
        let client = SandboxAuthorizationOptions.Client(id: "app", secret: "s3cret", redirectURI: registered)
        try await withAuthSandbox(SandboxAuthorizationOptions(clients: [client])) { sandbox, _ in
            let authorize = "launchpad/authorization/new?type=web_server&client_id=app&state=s&redirect_uri="
            let elsewhere = try await raw(sandbox, authorize + "http://127.0.0.1:9999/callback")
            #expect(elsewhere.status == 400)
            #expect(elsewhere.location == nil, "a redirect_uri not registered is never redirected to")
            let approved = try await raw(sandbox, authorize + registered)
            #expect(approved.status == 302)

            let exchange = try await raw(
                sandbox,
                "launchpad/authorization/token",
                form: "type=web_server&client_id=app&client_secret=s3cret&redirect_uri=\(registered)&code="
                    + (try Self.code(in: approved.location))
            )
            #expect(exchange.status == 200)
            let refreshToken = try #require(
                try JSONValue(parsing: Data(exchange.body.utf8))["refresh_token"]?.stringValue
            )
            // Launchpad's tokens hold `+`, `/` and `=`, so the form carries it percent-encoded.
            let encoded = try #require(refreshToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let refresh = "type=refresh&client_id=app&client_secret=s3cret&refresh_token=\(encoded)&redirect_uri="
            let refused = try await raw(
                sandbox,
                "launchpad/authorization/token",
                form: refresh + "http://127.0.0.1:9999/cb"
            )
            #expect(refused.status == 400)
            #expect(refused.body.contains("\"invalid_request\""))
            let refreshed = try await raw(sandbox, "launchpad/authorization/token", form: refresh + registered)
            #expect(refreshed.status == 200, "\(refreshed.body)")
        }
    }
}
