import Foundation
import HTTPCore

/// Signs in to the sandbox's Launchpad the way a web app's server does (the authorize redirect's
/// code, exchanged at the token endpoint), so the example starts with real, refreshable tokens.
enum SandboxSignIn {
    static let clientID = "openapi-example"
    /// Launchpad has no public clients: every token request carries the integration's secret.
    static let clientSecret = "openapi-example-secret"
    /// Where Launchpad sends the code; nothing needs to listen there, as the redirect is read, not followed.
    static let redirectURI = "http://127.0.0.1:9/callback"

    /// Tokens Launchpad issued for `clientID`.
    ///
    /// - Throws: ``HTTPCore/APIError`` when the sandbox refuses the sign-in.
    static func credentials(sandbox: URL) async throws -> TokenCredentials {
        let client = try HTTPCore.Client(
            configuration: ClientConfiguration(baseURL: sandbox, userAgent: "openapi-example (examples@example.com)")
        )
        let authorize = Endpoint<Data>(
            .get,
            "launchpad/authorization/new",
            query: ["type": "web_server", "client_id": clientID, "redirect_uri": redirectURI],
            operation: OperationMetadata(name: "Authorize", redirects: RedirectPolicy.none)
        )
        let redirect = try await client.response(authorize)
        guard let location = redirect.headers[.location].flatMap(URLComponents.init(string:)),
            let code = location.queryItems?.first(where: { $0.name == "code" })?.value
        else { throw APIError.usage("The sandbox's authorize page answered without a code.") }
        let token = Endpoint<TokenAnswer>(
            .post,
            "launchpad/authorization/token",
            body: .form([
                "type": "web_server", "client_id": clientID, "client_secret": clientSecret,
                "redirect_uri": redirectURI, "code": code,
            ]),
            operation: OperationMetadata(name: "ExchangeCode")
        )
        let answer = try await client.send(token)
        return TokenCredentials(
            accessToken: answer.accessToken,
            refreshToken: answer.refreshToken,
            expiresIn: .seconds(answer.expiresIn),
            receivedAt: Date()
        )
    }

    /// Launchpad's token answer.
    private struct TokenAnswer: Decodable, Sendable {
        var accessToken: String
        var refreshToken: String
        var expiresIn: Int
    }
}
