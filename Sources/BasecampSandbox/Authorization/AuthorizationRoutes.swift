import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird

/// The HTTP side of ``BasecampSandboxAuthorization``: both servers' routes, form parsing and
/// OAuth answers. A handler throws ``OAuthRefusal`` for an OAuth error; its route answers it.
@available(macOS 14, iOS 17, tvOS 17, *)
struct AuthorizationRoutes: Sendable {
    let authorization: BasecampSandboxAuthorization
    /// Where the Basecamp API is mounted, for the account links in `authorization.json`.
    let apiBasePath: String
    /// The account whose owner signs in.
    let store: AccountStore

    static let launchpadPath = "/launchpad"
    static let codeLifetime: TimeInterval = 600
    static let deviceCodeLifetime = 600
    static let maxFormSize = 64 * 1024

    func register(on router: Router<SandboxRequestContext>) {
        router.get("launchpad/authorization/new") { request, _ in authorize(request, on: .launchpad) }
        router.post("launchpad/authorization/token") { request, _ in
            try await answer(request) { try await token(request, on: .launchpad) }
        }
        router.get("launchpad/authorization.json") { request, _ in
            try await answer(request) { try authorizationDocument(request) }
        }
        router.get(".well-known/oauth-protected-resource") { request, _ in
            try await answer(request) { protectedResource(request) }
        }
        router.get(".well-known/oauth-authorization-server") { request, _ in
            try await answer(request, resourceFirst: true) { serverMetadata(request) }
        }
        router.get("oauth/authorize") { request, _ in
            try await answer(request, resourceFirst: true, fromBrowser: true) { authorize(request, on: .resourceFirst) }
        }
        router.post("oauth/token") { request, _ in
            try await answer(request, resourceFirst: true) { try await token(request, on: .resourceFirst) }
        }
        router.post("oauth/device_authorization") { request, _ in
            try await answer(request, resourceFirst: true) { try await deviceAuthorization(request) }
        }
        router.get("oauth/device") { _, _ in
            Self.page("Enter the code shown by your device. (The sandbox approves it by itself.)")
        }
    }

    /// What `handler` answers, or the OAuth error it throws, also for a `User-Agent` naming no contact (a page for
    /// browsers takes any); a `resourceFirst` route answers `404` while that server is off, as Launchpad is used.
    private func answer(
        _ request: Request,
        resourceFirst: Bool = false,
        fromBrowser: Bool = false,
        _ handler: () async throws -> Response
    ) async throws -> Response {
        guard !resourceFirst || authorization.options.offersResourceFirstServer else {
            return Self.json(["error": "Not found."], status: .notFound)
        }
        do {
            guard fromBrowser || request.namesContact else {
                throw OAuthRefusal("invalid_request", "Send a User-Agent naming your app and a contact.")
            }
            return try await handler()
        } catch let refusal as OAuthRefusal {
            var headers: HTTPFields = [:]
            if refusal.status == .unauthorized { headers[.wwwAuthenticate] = "Basic realm=\"sandbox\"" }
            let body: JSONValue = ["error": .string(refusal.code), "error_description": .string(refusal.description)]
            return Self.json(body, status: refusal.status, headers: headers)
        }
    }

    /// `http://127.0.0.1:PORT`, as the client addressed the sandbox.
    static func origin(_ request: Request) -> String {
        "http://" + (request.head.authority ?? "127.0.0.1")
    }

    /// The resource-first issuer: the sandbox's origin.
    static func issuer(_ request: Request) -> String { origin(request) }

    /// `client_id` and `client_secret` from the form, or from `Authorization: Basic`.
    static func clientCredentials(_ request: Request, form: [String: String]) -> (id: String, secret: String?)? {
        // One authentication method per request (RFC 6749 §2.3): Basic and a form secret both is none.
        if request.headers[.authorization]?.lowercased().hasPrefix("basic ") == true {
            return form["client_secret"] == nil ? request.basicCredentials.map { ($0.name, $0.password) } : nil
        }
        guard let id = form["client_id"], !id.isEmpty else { return nil }
        return (id, form["client_secret"])
    }

    /// The form of a token or device request and the client id it authenticates, with a secret on Launchpad.
    ///
    /// - Throws: ``OAuthRefusal`` `invalid_request` for a body that is not a form,
    ///   `invalid_client` for an unknown client or a wrong secret.
    func authenticatedForm(_ request: Request, on server: IssuingServer) async throws -> ([String: String], String) {
        var request = request
        guard let form = try await request.formFields(upTo: Self.maxFormSize) else {
            throw OAuthRefusal("invalid_request", "Send a form body with each field once.")
        }
        guard let client = Self.clientCredentials(request, form: form),
            server == .resourceFirst || client.secret?.isEmpty == false,
            authorization.authenticates(clientID: client.id, secret: client.secret)
        else {
            throw OAuthRefusal("invalid_client", "Unknown client or wrong secret.", status: .unauthorized)
        }
        return (form, client.id)
    }

    /// Whether a sign-in may be sent back to `redirectURI`: the sandbox only redirects to this
    /// machine, so it can never be used to send a browser elsewhere.
    static func isLoopbackRedirect(_ redirectURI: String) -> Bool {
        guard let components = URLComponents(string: redirectURI), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, components.fragment == nil
        else { return false }
        return URLPolicy.isLoopback(host: host)
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
}

/// An OAuth error: answered `{"error": code, "error_description": description}` with `status`.
struct OAuthRefusal: Error, Sendable {
    var code: String
    var description: String
    var status: HTTPResponse.Status

    init(_ code: String, _ description: String, status: HTTPResponse.Status = .badRequest) {
        (self.code, self.description, self.status) = (code, description, status)
    }
}
