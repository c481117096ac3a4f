import APISandbox
import Foundation
import HTTPCore
import Hummingbird

@available(macOS 14, iOS 17, tvOS 17, *)
extension AuthorizationRoutes {
    /// The authorize step both servers share: check the request, then approve at once (or
    /// decline, when told to) by redirecting to the loopback `redirect_uri` with a single-use code.
    func authorize(_ request: Request, on server: IssuingServer) -> Response {
        let query = QueryItems(request.uri.query).items
        func single(_ name: String) -> String? {
            let values = query.filter { $0.name == name }
            return values.count == 1 ? values[0].value : nil
        }
        // Until the redirect URI is known to be ours, problems are shown, never redirected.
        guard let redirectURI = single("redirect_uri"), Self.isLoopbackRedirect(redirectURI) else {
            return Self.page(
                "The sandbox redirects only to a loopback redirect_uri (http://127.0.0.1:PORT/…), given once.",
                status: .badRequest
            )
        }
        guard let clientID = single("client_id"), authorization.knows(clientID, at: redirectURI) else {
            return Self.page("Unknown client_id, or not the redirect_uri registered for it.", status: .badRequest)
        }
        /// A `302` back with `parameters`, the request's `state` and (resource-first) `iss` added.
        func back(_ parameters: [(name: String, value: String)]) -> Response {
            var parameters = parameters
            if let state = single("state") { parameters.append(("state", state)) }
            if server == .resourceFirst { parameters.append(("iss", Self.issuer(request))) }
            let location = redirectURI + (redirectURI.contains("?") ? "&" : "?") + QueryItems.encode(parameters)
            return Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
        }
        func refuse(_ code: String, _ description: String) -> Response {
            back([("error", code), ("error_description", description)])
        }
        // Launchpad also takes its drafts' spelling, `type=web_server`.
        guard (server == .launchpad && single("type") == "web_server") || single("response_type") == "code" else {
            let accepted = server == .launchpad ? "type=web_server or response_type=code" : "response_type=code"
            return refuse("unsupported_response_type", "Use \(accepted).")
        }
        let challenge = single("code_challenge")
        if challenge != nil || server == .resourceFirst {
            guard let challenge, (43...128).contains(challenge.count) else {
                return refuse("invalid_request", "A PKCE code_challenge is required.")
            }
            guard single("code_challenge_method") == "S256" else {
                return refuse("invalid_request", "Only code_challenge_method=S256 is accepted.")
            }
        }
        if authorization.options.declinesAuthorization { return refuse("access_denied", "The user declined.") }
        let code = SandboxSecrets.make("sbx_code_")
        let expiresAt = authorization.now().addingTimeInterval(Self.codeLifetime)
        authorization.update { records in
            records.codes[code] = .init(
                server: server,
                clientID: clientID,
                redirectURI: redirectURI,
                challenge: challenge,
                resource: single("resource"),
                expiresAt: expiresAt
            )
        }
        return back([("code", code)])
    }
}
