import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird

/// The HTTP side of ``BasecampSandboxAuthorization``: routes, form parsing and OAuth answers.
@available(macOS 14, iOS 17, tvOS 17, *)
struct AuthorizationRoutes: Sendable {
    typealias Context = SandboxRequestContext

    let authorization: BasecampSandboxAuthorization
    let apiBasePath: String
    let identity: @Sendable () -> SandboxIdentity

    static let launchpadPath = "/launchpad"
    static let codeLifetime: TimeInterval = 600
    static let deviceCodeLifetime = 600
    static let maxFormSize = 64 * 1024

    func register(on router: Router<Context>) {
        let launchpad = LaunchpadEndpoints(routes: self)
        router.get("launchpad/authorization/new") { request, _ in launchpad.authorize(request) }
        router.post("launchpad/authorization/token") { request, _ in
            try await TokenGrants(routes: self, server: .launchpad).answer(request)
        }
        router.get("launchpad/authorization.json") { request, _ in launchpad.authorizationDocument(request) }

        let resourceFirst = ResourceFirstEndpoints(routes: self)
        router.get(".well-known/oauth-protected-resource") { request, _ in resourceFirst.protectedResource(request) }
        router.get(".well-known/oauth-authorization-server") { request, _ in resourceFirst.serverMetadata(request) }
        router.get("oauth/authorize") { request, _ in resourceFirst.authorize(request) }
        router.post("oauth/token") { request, _ in
            guard authorization.options.offersResourceFirstServer else { return Self.notFound() }
            return try await TokenGrants(routes: self, server: .resourceFirst).answer(request)
        }
        router.post("oauth/device_authorization") { request, _ in try await resourceFirst.deviceAuthorization(request) }
        router.get("oauth/device") { _, _ in
            Self.page("Enter the code shown by your device. (The sandbox approves it by itself.)")
        }
    }

    // MARK: Requests

    /// `http://127.0.0.1:PORT`, as the client addressed the sandbox.
    static func origin(_ request: Request) -> String {
        "http://" + (request.head.authority ?? "127.0.0.1")
    }

    /// The resource-first issuer: the sandbox's origin.
    static func issuer(_ request: Request) -> String { origin(request) }

    /// Launchpad's issuer identifier in the sandbox.
    static func launchpadIssuer(_ request: Request) -> String { origin(request) + launchpadPath }

    /// `client_id` and `client_secret` from the form, or from `Authorization: Basic`.
    static func clientCredentials(_ request: Request, form: [String: String]) -> (id: String, secret: String?)? {
        if request.headers[.authorization]?.lowercased().hasPrefix("basic ") == true {
            return request.basicCredentials.map { ($0.name, $0.password) }
        }
        guard let id = form["client_id"], !id.isEmpty else { return nil }
        return (id, form["client_secret"])
    }

    /// An answer that ends a request early.
    struct Refusal: Error {
        var response: Response
    }

    /// The form of a token or device request and the client it authenticates, or the OAuth
    /// error to answer: `invalid_request` for a body that is not a form, `invalid_client` for an
    /// unknown client or a wrong secret.
    func authenticatedForm(_ request: Request) async throws -> Result<(form: [String: String], id: String), Refusal> {
        var request = request
        guard let form = try await request.formFields(upTo: Self.maxFormSize) else {
            return .failure(
                Refusal(response: Self.oauthError("invalid_request", "Send a form body with each field once."))
            )
        }
        guard let client = Self.clientCredentials(request, form: form),
            authorization.authenticates(clientID: client.id, secret: client.secret)
        else {
            return .failure(
                Refusal(
                    response: Self.oauthError(
                        "invalid_client",
                        "Unknown client or wrong secret.",
                        status: .unauthorized
                    )
                )
            )
        }
        return .success((form, client.id))
    }

    /// Whether a sign-in may be sent back to `redirectURI`: the sandbox only redirects to this
    /// machine, so it can never be used to send a browser elsewhere.
    static func isLoopbackRedirect(_ redirectURI: String) -> Bool {
        guard let components = URLComponents(string: redirectURI), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, components.fragment == nil
        else { return false }
        return URLPolicy.isLoopback(host: host)
    }

    // MARK: Answers

    /// An OAuth error answer: `{"error": code, "error_description": description}`.
    static func oauthError(_ code: String, _ description: String, status: HTTPResponse.Status = .badRequest) -> Response
    {
        var headers: HTTPFields = [.cacheControl: "no-store"]
        if status == .unauthorized { headers[.wwwAuthenticate] = "Basic realm=\"sandbox\"" }
        return json(
            ["error": .string(code), "error_description": .string(description)],
            status: status,
            headers: headers
        )
    }

    /// A JSON answer that caches nowhere.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.cacheControl] = "no-store"
        return SandboxResponse.json(value, status: status, headers: fields)
    }

    /// A one-line HTML page.
    static func page(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        SandboxResponse.page(text, title: "Sandbox sign-in", status: status)
    }

    static func notFound() -> Response {
        json(["error": "Not found."], status: .notFound)
    }

    /// A `302` to `redirectURI` with `parameters` added to its query.
    static func redirect(to redirectURI: String, _ parameters: [(String, String)]) -> Response {
        let separator = redirectURI.contains("?") ? "&" : "?"
        let query = QueryItems.encode(parameters.map { (name: $0.0, value: $0.1) })
        return Response(
            status: .found,
            headers: [.location: redirectURI + separator + query, .cacheControl: "no-store"]
        )
    }

    /// Tokens for a grant: a new access token and (rotated) refresh token, recorded.
    func issueTokens(
        server: IssuingServer,
        clientID: String,
        resource: String?,
        includeResource: Bool
    ) -> Response {
        let lifetime = authorization.options.accessTokenLifetime
        let access = SandboxSecrets.make("sbx_at_")
        let refresh = SandboxSecrets.make("sbx_rt_")
        let expiresAt = authorization.now().addingTimeInterval(TimeInterval(lifetime))
        authorization.update { records in
            records.accessTokens[access] = .init(clientID: clientID, expiresAt: expiresAt, resource: resource)
            records.refreshTokens[refresh] = .init(server: server, clientID: clientID, resource: resource)
        }
        var body: [String: JSONValue] = [
            "access_token": .string(access), "refresh_token": .string(refresh), "expires_in": .integer(lifetime),
        ]
        if server == .resourceFirst {
            body["token_type"] = "Bearer"
            if includeResource, let resource { body["resource"] = .string(resource) }
        }
        return Self.json(.object(body))
    }
}
