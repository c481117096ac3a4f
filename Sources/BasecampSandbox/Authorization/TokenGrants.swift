import Crypto
import Foundation
import HTTPCore
import Hummingbird

/// A token endpoint of one of the sandbox's servers: the code, refresh and device grants.
///
/// Launchpad accepts its drafts' spelling (`type=web_server`, `type=refresh`) as well as the
/// standard one and answers `{access_token, refresh_token, expires_in}`; the resource-first
/// server accepts only `grant_type=…` and adds `token_type` (and `resource` on first issue).
@available(macOS 14, iOS 17, tvOS 17, *)
struct TokenGrants {
    let routes: AuthorizationRoutes
    let server: IssuingServer

    private var authorization: BasecampSandboxAuthorization { routes.authorization }

    func answer(_ request: Request) async throws -> Response {
        let client: (form: [String: String], id: String)
        switch try await routes.authenticatedForm(request) {
        case .success(let authenticated): client = authenticated
        case .failure(let refusal): return refusal.response
        }
        let form = client.form
        switch grant(form) {
        case "authorization_code"?: return exchange(form, clientID: client.id)
        case "refresh_token"?: return refresh(form, clientID: client.id)
        case "urn:ietf:params:oauth:grant-type:device_code"? where server == .resourceFirst:
            return poll(form, clientID: client.id)
        default:
            return AuthorizationRoutes.oauthError("unsupported_grant_type", "This server does not offer that grant.")
        }
    }

    /// The grant in the standard spelling; Launchpad also takes the drafts' `type`.
    private func grant(_ form: [String: String]) -> String? {
        if let type = form["grant_type"] { return type }
        guard server == .launchpad else { return nil }
        switch form["type"] {
        case "web_server"?: return "authorization_code"
        case "refresh"?: return "refresh_token"
        default: return nil
        }
    }

    private func exchange(_ form: [String: String], clientID: String) -> Response {
        guard let code = form["code"], let redirectURI = form["redirect_uri"] else {
            return AuthorizationRoutes.oauthError("invalid_request", "code and redirect_uri are required.")
        }
        // Single use: the code is gone whatever the outcome.
        let record = authorization.update { $0.codes.removeValue(forKey: code) }
        guard let record, record.server == server, record.clientID == clientID, record.redirectURI == redirectURI,
            record.expiresAt > authorization.now()
        else {
            return AuthorizationRoutes.oauthError(
                "invalid_grant",
                "The code is unknown, used, expired or not for this client."
            )
        }
        if let challenge = record.challenge {
            guard let verifier = form["code_verifier"], Self.challenge(for: verifier) == challenge else {
                return AuthorizationRoutes.oauthError(
                    "invalid_grant",
                    "The code_verifier does not match the code_challenge."
                )
            }
        }
        let resource = form["resource"] ?? record.resource
        return routes.issueTokens(server: server, clientID: clientID, resource: resource, includeResource: true)
    }

    private func refresh(_ form: [String: String], clientID: String) -> Response {
        guard let token = form["refresh_token"] else {
            return AuthorizationRoutes.oauthError("invalid_request", "refresh_token is required.")
        }
        enum Outcome {
            case refused, resourceMissing
            case granted(String?)
        }
        let server = server
        let outcome = authorization.update { records -> Outcome in
            records.refreshRequests += 1
            guard let record = records.refreshTokens[token], record.isUsable, record.server == server,
                record.clientID == clientID
            else { return .refused }
            if let bound = record.resource, form["resource"] != bound { return .resourceMissing }
            records.refreshTokens[token]?.isUsable = false
            return .granted(record.resource)
        }
        switch outcome {
        case .refused:
            return AuthorizationRoutes.oauthError("invalid_grant", "The refresh token is unknown, spent or revoked.")
        case .resourceMissing:
            return AuthorizationRoutes.oauthError(
                "invalid_request",
                "This token is bound to one account: send its resource with the refresh."
            )
        case .granted(let resource):
            // Refresh answers leave `resource` out; clients keep the one they have.
            return routes.issueTokens(server: server, clientID: clientID, resource: resource, includeResource: false)
        }
    }

    /// RFC 8628 §3.4–3.5: pending for the first polls, `slow_down` for a client that polls
    /// faster than the interval, then tokens (once).
    private func poll(_ form: [String: String], clientID: String) -> Response {
        guard let deviceCode = form["device_code"] else {
            return AuthorizationRoutes.oauthError("invalid_request", "device_code is required.")
        }
        enum Outcome {
            case refused, expired, slowDown, pending
            case approved(String?)
        }
        let now = authorization.now()
        let approveAfter = authorization.options.devicePollsBeforeApproval
        let outcome = authorization.update { records -> Outcome in
            guard var record = records.deviceCodes[deviceCode], record.isUsable, record.clientID == clientID else {
                return .refused
            }
            guard record.expiresAt > now else { return .expired }
            // A little slack: a client that waited the interval may still arrive a hair early.
            let tooSoon = now.timeIntervalSince(record.lastPoll) < Double(record.interval) * 0.8
            record.lastPoll = now
            record.polls += 1
            defer { records.deviceCodes[deviceCode] = record }
            if tooSoon {
                record.interval += 5
                return .slowDown
            }
            guard record.polls > approveAfter else { return .pending }
            record.isUsable = false
            return .approved(record.resource)
        }
        switch outcome {
        case .refused:
            return AuthorizationRoutes.oauthError(
                "invalid_grant",
                "The device code is unknown, used or not for this client."
            )
        case .expired:
            return AuthorizationRoutes.oauthError("expired_token", "The device code expired.")
        case .slowDown:
            return AuthorizationRoutes.oauthError("slow_down", "Polling too fast; wait 5 seconds more between polls.")
        case .pending:
            return AuthorizationRoutes.oauthError("authorization_pending", "The user has not finished yet.")
        case .approved(let resource):
            return routes.issueTokens(
                server: .resourceFirst,
                clientID: clientID,
                resource: resource,
                includeResource: true
            )
        }
    }

    /// PKCE S256: `BASE64URL(SHA256(verifier))` without padding.
    static func challenge(for verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
