import APISandbox
import Foundation
import HTTPCore
import Hummingbird

/// The servers' documents and the device endpoint.
@available(macOS 14, iOS 17, tvOS 17, *)
extension AuthorizationRoutes {
    /// Launchpad's `authorization.json`: when the token expires, who it belongs to, and its
    /// accounts: the sandbox's Basecamp account and a HEY account, which is not Basecamp.
    func authorizationDocument(_ request: Request) throws -> Response {
        guard let token = request.bearerToken, authorization.accepts(token) else {
            throw OAuthRefusal("invalid_token", "The access token is invalid or has expired.", status: .unauthorized)
        }
        let lifetime = TimeInterval(authorization.options.accessTokenLifetime)
        let expiresAt = authorization.expiry(of: token) ?? authorization.now().addingTimeInterval(lifetime)
        let data = store.snapshot()
        let me = data.person(data.meID)
        let name = me?.name ?? "Sandbox User"
        let names = name.split(separator: " ", maxSplits: 1).map(String.init)
        let account = "\(Self.origin(request))\(apiBasePath)/\(data.accountID)"
        return Self.json([
            "expires_at": .string(expiresAt.formatted(.utcTimestamp)),
            "identity": [
                "id": .integer(data.meID),
                "first_name": .string(names.first ?? name),
                "last_name": .string(names.count > 1 ? names[1] : ""),
                "email_address": .string(me?.email ?? "sandbox@example.com"),
            ],
            "accounts": [
                [
                    "product": "bc3",
                    "id": .integer(data.accountID),
                    "name": .string(data.accountName),
                    "href": .string(account),
                    "app_href": .string(account + "/projects"),
                ],
                [
                    "product": "hey",
                    "id": 2_914_079,
                    "name": "HEY",
                    "href": "https://app.hey.com",
                    "app_href": "https://app.hey.com",
                ],
            ],
        ])
    }

    /// RFC 9728 for the API at this origin: the resource-first issuer and Launchpad, or only
    /// Launchpad when the resource-first server is off.
    func protectedResource(_ request: Request) -> Response {
        var servers: [JSONValue] = [.string(Self.origin(request) + Self.launchpadPath)]
        if authorization.options.offersResourceFirstServer { servers.insert(.string(Self.issuer(request)), at: 0) }
        return Self.json([
            "resource": .string(Self.origin(request)),
            "authorization_servers": .array(servers),
            "bearer_methods_supported": ["header"],
        ])
    }

    /// RFC 8414 for the resource-first issuer (cut off mid-document when told to serve it broken).
    func serverMetadata(_ request: Request) -> Response {
        let issuer = Self.issuer(request)
        if authorization.options.servesBrokenDiscovery {
            var response = Self.json(["issuer": .string(issuer)])
            response.body = ResponseBody(
                byteBuffer: ByteBuffer(string: #"{"issuer": ""# + issuer + #"", "token_endpoint": "#)
            )
            return response
        }
        return Self.json([
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

    /// RFC 8628 §3.1–3.2: a device code, a user code and where to enter it.
    func deviceAuthorization(_ request: Request) async throws -> Response {
        guard authorization.options.offersDeviceGrant else {
            let unavailable = "The device grant is not enabled yet."
            throw OAuthRefusal("temporarily_unavailable", unavailable, status: .serviceUnavailable)
        }
        let (form, clientID) = try await authenticatedForm(request, on: .resourceFirst)
        let (deviceCode, userCode) = (SandboxSecrets.make("sbx_dc_"), SandboxSecrets.userCode())
        let (now, interval) = (authorization.now(), authorization.options.deviceInterval)
        authorization.update { records in
            records.deviceCodes[deviceCode] = .init(
                clientID: clientID,
                userCode: userCode,
                resource: form["resource"],
                expiresAt: now.addingTimeInterval(TimeInterval(Self.deviceCodeLifetime)),
                interval: interval,
                lastPoll: now
            )
        }
        let verification = Self.issuer(request) + "/oauth/device"
        return Self.json([
            "device_code": .string(deviceCode),
            "user_code": .string(userCode),
            "verification_uri": .string(verification),
            "verification_uri_complete": .string(verification + "?user_code=" + userCode),
            "expires_in": .integer(Self.deviceCodeLifetime),
            "interval": .integer(interval),
        ])
    }
}
