public import Foundation
import HTTPCore

/// One authorization-code sign-in in progress: the URL to open in a browser, and what the
/// callback must match.
///
/// Make one with ``OAuthClient/authorizationRequest(redirectURI:scope:resource:additionalParameters:)``,
/// open ``url`` (an `ASWebAuthenticationSession`, the system browser, or a loopback listener's
/// browser for a command-line tool), and hand the URL the browser is redirected to back to
/// ``authorizationCode(from:)`` or ``OAuthClient/exchange(callback:for:)``.
///
/// The request holds secrets (the PKCE verifier and the `state`): keep it in memory only, for
/// one sign-in. Printing or dumping it shows neither.
public struct AuthorizationRequest: Sendable {
    /// The URL to open: the authorization endpoint with `response_type=code`, the client id,
    /// the redirect URI, `state`, the PKCE challenge and any scope and resource.
    public let url: URL
    /// The random `state` the callback must carry back unchanged.
    public let state: String
    /// The PKCE pair; its verifier goes to the token endpoint with the code.
    public let pkce: PKCE
    /// Where the browser is sent back.
    public let redirectURI: URL
    /// The scope asked for, if any.
    public let scope: String?
    /// The RFC 8707 resource asked for, if any.
    public let resource: String?
    /// The issuer the server was discovered as, checked against the callback's `iss`.
    public let issuer: String?
    /// Whether the callback must carry `iss`: the server says it always sends one (RFC 9207).
    public let requiresIssuer: Bool

    /// Checks the URL the browser was sent back to and returns its code.
    ///
    /// In order: the callback must be for ``redirectURI`` (scheme, host, port and path); its
    /// `state` must equal ``state`` (compared in constant time) and appear once; a server error
    /// (`error=access_denied`, …) becomes a typed error; an `iss`, when present (and always when
    /// ``requiresIssuer``), must equal ``issuer``; and exactly one non-empty `code` must be there.
    /// Nothing is sent anywhere.
    ///
    /// - Throws: ``APIError``: `auth_required` for a callback that does not belong to this
    ///   request (nothing may be exchanged), `forbidden` when the user declined
    ///   (``OAuthErrorCode/accessDenied``), `usage` for a server error that names the app's
    ///   configuration, `api_error` for the server's own failures. ``APIError/oauthErrorCode``
    ///   gives the server's code.
    public func authorizationCode(from callback: URL) throws -> AuthorizationCode {
        guard Self.sameEndpoint(callback, redirectURI) else {
            throw Self.refused("The sign-in callback is not for this request's redirect URI.")
        }
        let items = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func values(_ name: String) -> [String] { items.filter { $0.name == name }.map { $0.value ?? "" } }
        let states = values("state")
        let errors = values("error")
        // An error report must carry this request's state too (RFC 6749 §4.1.2.1): without it,
        // anyone able to open the redirect URI could end the sign-in with words of their choosing.
        if !errors.isEmpty, states.count == 1, SecureRandom.equal(states[0], state) {
            throw Self.serverError(
                OAuthErrorBody(
                    code: errors.first,
                    description: values("error_description").first?.replacingOccurrences(of: "+", with: " "),
                    secrets: [state, pkce.verifier]
                )
            )
        }
        guard states.count == 1, SecureRandom.equal(states[0], state) else {
            throw Self.refused(
                "The sign-in callback's state does not match this request, so its code was not exchanged."
            )
        }
        let issuers = values("iss")
        if let issuer, !issuers.isEmpty || requiresIssuer, issuers != [issuer] {
            throw Self.refused(
                issuers.isEmpty
                    ? "The sign-in callback carries no iss, which this request's server always sends."
                    : "The sign-in callback comes from another issuer than this request's server."
            )
        }
        let codes = values("code")
        guard codes.count == 1, let code = codes.first, !code.isEmpty else {
            throw Self.refused("The sign-in callback carries no authorization code.")
        }
        return AuthorizationCode(code: code, redirectURI: redirectURI, codeVerifier: pkce.verifier, resource: resource)
    }

    /// Whether `callback` answers this request: it arrives at ``redirectURI`` and carries this
    /// request's `state` exactly once. An error report counts; a stranger's callback does not.
    ///
    /// An ``AuthorizationRedirectReceiver`` uses it to tell this sign-in's callback from anything
    /// else that reaches its port.
    public func isCallback(_ callback: URL) -> Bool {
        guard Self.sameEndpoint(callback, redirectURI) else { return false }
        let states = (URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? []).filter {
            $0.name == "state"
        }
        return states.count == 1 && SecureRandom.equal(states[0].value ?? "", state)
    }

    /// Whether two URLs name the same endpoint: scheme, host, port and path.
    static func sameEndpoint(_ lhs: URL, _ rhs: URL) -> Bool {
        func parts(_ url: URL) -> (String, String, Int?, String)? {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
            let scheme = components.scheme?.lowercased() ?? ""
            let port = components.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            return (scheme, components.host?.lowercased() ?? "", port, path)
        }
        guard let left = parts(lhs), let right = parts(rhs) else { return false }
        return left == right
    }

    private static func refused(_ message: String) -> APIError {
        .authRequired(APIError.Details(message: message, hint: "Start the sign-in again."))
    }

    private static func serverError(_ oauth: OAuthErrorBody) -> APIError {
        var details = APIError.Details(message: "")
        details.setOAuthCode(oauth.code)
        let code: APIError.Code
        switch oauth.code {
        case .accessDenied?:
            code = .forbidden
            details.message = "Sign-in was declined\(oauth.summary)."
            details.hint = "Sign in again and approve the request to continue."
        case .invalidRequest?, .unauthorizedClient?, .unsupportedResponseType?, .invalidScope?:
            code = .usage
            details.message = "The authorization server refused the sign-in request\(oauth.summary)."
            details.hint = "Check the client id, redirect URI and scope registered with the provider."
        case .serverError?, .temporarilyUnavailable?:
            code = .apiError
            details.message = "The authorization server failed\(oauth.summary)."
            details.hint = "Try again later."
        default:
            code = .authRequired
            details.message = "The authorization server ended the sign-in\(oauth.summary)."
            details.hint = "Start the sign-in again."
        }
        return APIError(code, details)
    }
}

extension AuthorizationRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The redirect URI, scope and resource; the URL (which carries the state) is left out.
    public var description: String {
        "AuthorizationRequest(redirectURI: \(redirectURI.absoluteString), scope: \(scope ?? "nil"), resource: \(resource ?? "nil"), state: \(Redactor.placeholder), pkce: \(pkce))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// No secrets, so `dump` shows none.
    public var customMirror: Mirror {
        Mirror(self, children: ["redirectURI": redirectURI, "scope": scope as Any, "resource": resource as Any])
    }
}

/// An authorization code from a checked callback, with what its exchange needs.
///
/// Printing or dumping it never shows the code or the verifier.
public struct AuthorizationCode: Sendable {
    /// The code.
    public let code: String
    /// The redirect URI the code was issued for; the token endpoint checks it.
    public let redirectURI: URL
    /// The PKCE verifier of the request.
    public let codeVerifier: String
    /// The RFC 8707 resource the request asked for, repeated in the exchange.
    public let resource: String?

    /// Creates a code, for codes received some other way than ``AuthorizationRequest``.
    public init(code: String, redirectURI: URL, codeVerifier: String, resource: String? = nil) {
        self.code = code
        self.redirectURI = redirectURI
        self.codeVerifier = codeVerifier
        self.resource = resource
    }
}

extension AuthorizationCode: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The redirect URI and resource; the code and verifier are shown as `[REDACTED]`.
    public var description: String {
        "AuthorizationCode(code: \(Redactor.placeholder), redirectURI: \(redirectURI.absoluteString), resource: \(resource ?? "nil"))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// No secrets, so `dump` shows none.
    public var customMirror: Mirror {
        Mirror(self, children: ["redirectURI": redirectURI, "resource": resource as Any])
    }
}
