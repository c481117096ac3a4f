import APISandbox
import Crypto
import Foundation
import HTTPCore
import Hummingbird

/// The token endpoints: the code, refresh and device grants.
///
/// Launchpad accepts its drafts' spelling (`type=web_server`, `type=refresh`) as well as the
/// standard one and answers `{access_token, refresh_token, expires_in}`; the resource-first
/// server accepts only `grant_type=…` and adds `token_type` (and `resource` on first issue).
@available(macOS 14, iOS 17, tvOS 17, *)
extension AuthorizationRoutes {
    func token(_ request: Request, on server: IssuingServer) async throws -> Response {
        let (form, clientID) = try await authenticatedForm(request, on: server)
        switch Self.grant(form, on: server) {
        case "authorization_code"?: return try exchange(form, clientID: clientID, on: server)
        case "refresh_token"?: return try refresh(form, clientID: clientID, on: server)
        case "urn:ietf:params:oauth:grant-type:device_code"? where server == .resourceFirst:
            return try poll(form, clientID: clientID)
        default:
            throw OAuthRefusal("unsupported_grant_type", "This server does not offer that grant.")
        }
    }

    /// The grant in the standard spelling; Launchpad also takes the drafts' `type`.
    private static func grant(_ form: [String: String], on server: IssuingServer) -> String? {
        if let type = form["grant_type"] { return type }
        guard server == .launchpad, let type = form["type"] else { return nil }
        return ["web_server": "authorization_code", "refresh": "refresh_token"][type]
    }

    private func exchange(_ form: [String: String], clientID: String, on server: IssuingServer) throws -> Response {
        guard let code = form["code"], let redirectURI = form["redirect_uri"] else {
            throw OAuthRefusal("invalid_request", "code and redirect_uri are required.")
        }
        // Single use: the code is gone whatever the outcome.
        let record = authorization.update { $0.codes.removeValue(forKey: code) }
        guard let record, record.server == server, record.clientID == clientID, record.redirectURI == redirectURI,
            record.expiresAt > authorization.now()
        else { throw OAuthRefusal("invalid_grant", "The code is unknown, used, expired or not for this client.") }
        // A verifier for a code issued without a challenge is refused too: a downgrade (RFC 9700).
        if record.challenge != nil || form["code_verifier"] != nil {
            guard let verifier = form["code_verifier"], Self.challenge(for: verifier) == record.challenge else {
                throw OAuthRefusal("invalid_grant", "The code_verifier does not match the code_challenge.")
            }
        }
        if let asked = form["resource"], let approved = record.resource, asked != approved {
            throw OAuthRefusal("invalid_target", "The token may be for the approved resource only (RFC 8707).")
        }
        let resource = form["resource"] ?? record.resource
        return issueTokens(on: server, clientID: clientID, resource: resource, refreshing: false)
    }

    private func refresh(_ form: [String: String], clientID: String, on server: IssuingServer) throws -> Response {
        // Launchpad wants the integration's (registered) redirect URI again on every refresh.
        let redirect = form["redirect_uri"] ?? ""
        guard let token = form["refresh_token"],
            server == .resourceFirst || Self.isLoopbackRedirect(redirect) && authorization.knows(clientID, at: redirect)
        else { throw OAuthRefusal("invalid_request", "refresh_token (and on Launchpad, redirect_uri) is required.") }
        // A refusal is returned, not thrown, so that the request is counted all the same.
        let granted = authorization.update { records -> Result<String?, OAuthRefusal> in
            records.refreshRequests += 1
            guard let record = records.refreshTokens[token], record.isUsable, record.server == server,
                record.clientID == clientID
            else { return .failure(OAuthRefusal("invalid_grant", "The refresh token is unknown, spent or revoked.")) }
            if let bound = record.resource, form["resource"] != bound {
                let unbound = "This token is bound to one account: send its resource with the refresh."
                return .failure(OAuthRefusal("invalid_request", unbound))
            }
            if authorization.options.rotatesRefreshTokens { records.refreshTokens[token]?.isUsable = false }
            return .success(record.resource)
        }
        return issueTokens(on: server, clientID: clientID, resource: try granted.get(), refreshing: true)
    }

    /// RFC 8628 §3.4–3.5: pending for the first polls, `slow_down` when polled too fast, then tokens (once) or denial.
    private func poll(_ form: [String: String], clientID: String) throws -> Response {
        guard let code = form["device_code"] else { throw OAuthRefusal("invalid_request", "device_code is required.") }
        let now = authorization.now()
        let approveAfter = authorization.options.devicePollsBeforeApproval
        // Refusals are returned, not thrown, so that the poll is recorded all the same.
        let approved = authorization.update { records -> Result<String?, OAuthRefusal> in
            guard var record = records.deviceCodes[code], record.isUsable, record.clientID == clientID else {
                return .failure(OAuthRefusal("invalid_grant", "The device code is unknown, used or another client's."))
            }
            guard record.expiresAt > now else {
                return .failure(OAuthRefusal("expired_token", "The device code expired."))
            }
            // A little slack: a client that waited the interval may still arrive a hair early.
            let tooSoon = now.timeIntervalSince(record.lastPoll) < Double(record.interval) * 0.8
            record.lastPoll = now
            record.polls += 1
            defer { records.deviceCodes[code] = record }
            if tooSoon {
                record.interval += 5
                return .failure(OAuthRefusal("slow_down", "Polling too fast; wait 5 seconds more between polls."))
            }
            guard record.polls > approveAfter else {
                return .failure(OAuthRefusal("authorization_pending", "The user has not finished yet."))
            }
            record.isUsable = false
            let declined = OAuthRefusal("access_denied", "The user declined the authorization.")
            return authorization.options.declinesAuthorization ? .failure(declined) : .success(record.resource)
        }
        return issueTokens(on: .resourceFirst, clientID: clientID, resource: try approved.get(), refreshing: false)
    }

    /// Tokens for a grant, recorded: a new access token and refresh token, except that a refresh keeps its refresh
    /// token unless the options rotate them. A refresh's answer leaves `resource` out; clients keep the one they have.
    private func issueTokens(
        on server: IssuingServer,
        clientID: String,
        resource: String?,
        refreshing: Bool
    ) -> Response {
        let lifetime = authorization.options.accessTokenLifetime
        let rotating = !refreshing || authorization.options.rotatesRefreshTokens
        let (access, refresh) = (SandboxSecrets.signedMessage(), rotating ? SandboxSecrets.signedMessage() : nil)
        let expiresAt = authorization.now().addingTimeInterval(TimeInterval(lifetime))
        authorization.update { records in
            records.accessTokens[access] = .init(clientID: clientID, expiresAt: expiresAt, resource: resource)
            if let refresh {
                records.refreshTokens[refresh] = .init(server: server, clientID: clientID, resource: resource)
            }
        }
        var body: [String: JSONValue] = ["access_token": .string(access), "expires_in": .integer(lifetime)]
        if let refresh { body["refresh_token"] = .string(refresh) }
        if server == .resourceFirst {
            body["token_type"] = "Bearer"
            if !refreshing, let resource { body["resource"] = .string(resource) }
        }
        return Self.json(.object(body))
    }

    /// PKCE S256: `BASE64URL(SHA256(verifier))` without padding.
    static func challenge(for verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
