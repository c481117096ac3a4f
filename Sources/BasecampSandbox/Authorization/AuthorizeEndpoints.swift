import APISandbox
import Foundation
import HTTPCore
import Hummingbird

/// The authorize step both servers share: check the request, then approve at once (or decline,
/// when told to) by redirecting to the loopback `redirect_uri` with a single-use code.
@available(macOS 14, iOS 17, tvOS 17, *)
struct AuthorizeStep {
    let routes: AuthorizationRoutes
    let server: IssuingServer

    func answer(_ request: Request) -> Response {
        let query = QueryItems(request.uri.query).items
        func single(_ name: String) -> String? {
            let values = query.filter { $0.name == name }
            return values.count == 1 ? values[0].value : nil
        }
        // Until the redirect URI is known to be ours, problems are shown, never redirected.
        guard let redirectURI = single("redirect_uri"), AuthorizationRoutes.isLoopbackRedirect(redirectURI) else {
            return AuthorizationRoutes.page(
                "The sandbox redirects only to a loopback redirect_uri (http://127.0.0.1:PORT/…), given once.",
                status: .badRequest
            )
        }
        guard let clientID = single("client_id"), routes.authorization.knows(clientID: clientID) else {
            return AuthorizationRoutes.page("Unknown client_id.", status: .badRequest)
        }
        let state = single("state")
        var back: [(String, String)] = []
        func refuse(_ code: String, _ description: String) -> Response {
            back.append(("error", code))
            back.append(("error_description", description))
            if let state { back.append(("state", state)) }
            if server == .resourceFirst { back.append(("iss", AuthorizationRoutes.issuer(request))) }
            return AuthorizationRoutes.redirect(to: redirectURI, back)
        }
        switch server {
        case .launchpad:
            guard single("type") == "web_server" || single("response_type") == "code" else {
                return refuse("unsupported_response_type", "Use type=web_server or response_type=code.")
            }
        case .resourceFirst:
            guard single("response_type") == "code" else {
                return refuse("unsupported_response_type", "Use response_type=code.")
            }
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
        if routes.authorization.options.declinesAuthorization {
            return refuse("access_denied", "The user declined.")
        }
        let code = SandboxSecrets.make("sbx_code_")
        let expiresAt = routes.authorization.now().addingTimeInterval(AuthorizationRoutes.codeLifetime)
        routes.authorization.update { records in
            records.codes[code] = .init(
                server: server,
                clientID: clientID,
                redirectURI: redirectURI,
                challenge: challenge,
                resource: single("resource"),
                expiresAt: expiresAt
            )
        }
        back.append(("code", code))
        if let state { back.append(("state", state)) }
        if server == .resourceFirst { back.append(("iss", AuthorizationRoutes.issuer(request))) }
        return AuthorizationRoutes.redirect(to: redirectURI, back)
    }
}

/// Launchpad's pages and documents.
@available(macOS 14, iOS 17, tvOS 17, *)
struct LaunchpadEndpoints {
    let routes: AuthorizationRoutes

    func authorize(_ request: Request) -> Response {
        AuthorizeStep(routes: routes, server: .launchpad).answer(request)
    }

    /// `authorization.json`: when the token expires, who it belongs to, and its accounts: the
    /// sandbox's Basecamp account and a HEY account, which is not Basecamp.
    func authorizationDocument(_ request: Request) -> Response {
        guard let token = request.bearerToken, routes.authorization.accepts(token) else {
            return AuthorizationRoutes.oauthError(
                "invalid_token",
                "The access token is invalid or has expired.",
                status: .unauthorized
            )
        }
        let expiresAt =
            routes.authorization.expiry(of: token)
            ?? routes.authorization.now().addingTimeInterval(
                TimeInterval(routes.authorization.options.accessTokenLifetime)
            )
        let identity = routes.identity()
        let names = identity.name.split(separator: " ", maxSplits: 1).map(String.init)
        let origin = AuthorizationRoutes.origin(request)
        let document: JSONValue = [
            "expires_at": .string(expiresAt.formatted(.iso8601)),
            "identity": [
                "id": .integer(identity.personID),
                "first_name": .string(names.first ?? identity.name),
                "last_name": .string(names.count > 1 ? names[1] : ""),
                "email_address": .string(identity.email),
            ],
            "accounts": [
                [
                    "product": "bc3",
                    "id": .integer(identity.accountID),
                    "name": .string(identity.accountName),
                    "href": .string("\(origin)\(routes.apiBasePath)/\(identity.accountID)"),
                    "app_href": .string("\(origin)\(routes.apiBasePath)/\(identity.accountID)/projects"),
                ],
                [
                    "product": "hey",
                    "id": 2_914_079,
                    "name": "HEY",
                    "href": "https://app.hey.com",
                    "app_href": "https://app.hey.com",
                ],
            ],
        ]
        return AuthorizationRoutes.json(document)
    }
}

/// The resource-first server's documents, authorize page and device endpoint.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ResourceFirstEndpoints {
    let routes: AuthorizationRoutes

    private var offered: Bool { routes.authorization.options.offersResourceFirstServer }

    /// RFC 9728 for the API at this origin: the resource-first issuer and Launchpad, or only
    /// Launchpad when the resource-first server is off.
    func protectedResource(_ request: Request) -> Response {
        var servers: [JSONValue] = [.string(AuthorizationRoutes.launchpadIssuer(request))]
        if offered { servers.insert(.string(AuthorizationRoutes.issuer(request)), at: 0) }
        return AuthorizationRoutes.json([
            "resource": .string(AuthorizationRoutes.origin(request)),
            "authorization_servers": .array(servers),
            "bearer_methods_supported": ["header"],
        ])
    }

    /// RFC 8414 for the resource-first issuer.
    func serverMetadata(_ request: Request) -> Response {
        guard offered else { return AuthorizationRoutes.notFound() }
        let issuer = AuthorizationRoutes.issuer(request)
        return AuthorizationRoutes.json([
            "issuer": .string(issuer),
            "authorization_endpoint": .string(issuer + "/oauth/authorize"),
            "token_endpoint": .string(issuer + "/oauth/token"),
            "device_authorization_endpoint": .string(issuer + "/oauth/device_authorization"),
            "grant_types_supported": [
                "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code",
            ],
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_post", "client_secret_basic"],
            "authorization_response_iss_parameter_supported": true,
        ])
    }

    func authorize(_ request: Request) -> Response {
        guard offered else { return AuthorizationRoutes.notFound() }
        return AuthorizeStep(routes: routes, server: .resourceFirst).answer(request)
    }

    /// RFC 8628 §3.1–3.2: a device code, a user code and where to enter it.
    func deviceAuthorization(_ request: Request) async throws -> Response {
        guard offered else { return AuthorizationRoutes.notFound() }
        let authorization = routes.authorization
        guard authorization.options.offersDeviceGrant else {
            return AuthorizationRoutes.oauthError(
                "temporarily_unavailable",
                "The device grant is not enabled yet.",
                status: .serviceUnavailable
            )
        }
        let client: (form: [String: String], id: String)
        switch try await routes.authenticatedForm(request) {
        case .success(let authenticated): client = authenticated
        case .failure(let refusal): return refusal.response
        }
        let form = client.form
        let deviceCode = SandboxSecrets.make("sbx_dc_")
        let userCode = SandboxSecrets.userCode()
        let now = authorization.now()
        let interval = authorization.options.deviceInterval
        authorization.update { records in
            records.deviceCodes[deviceCode] = .init(
                clientID: client.id,
                userCode: userCode,
                resource: form["resource"],
                expiresAt: now.addingTimeInterval(TimeInterval(AuthorizationRoutes.deviceCodeLifetime)),
                interval: interval,
                lastPoll: now
            )
        }
        let verification = AuthorizationRoutes.issuer(request) + "/oauth/device"
        return AuthorizationRoutes.json([
            "device_code": .string(deviceCode),
            "user_code": .string(userCode),
            "verification_uri": .string(verification),
            "verification_uri_complete": .string(verification + "?user_code=" + userCode),
            "expires_in": .integer(AuthorizationRoutes.deviceCodeLifetime),
            "interval": .integer(interval),
        ])
    }
}
