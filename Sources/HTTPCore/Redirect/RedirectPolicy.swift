import Foundation
public import HTTPTypes

/// Which redirects a client follows, and what it strips when it does.
///
/// The default follows up to 5 redirects. When a redirect leaves the origin (scheme, host and
/// port), credential headers are removed so a token meant for one server never reaches
/// another. A redirect from https to http is refused outright. A 307 or 308 keeps the body,
/// which cannot be stripped: one to another origin whose form body has a field the client's
/// redactor treats as secret (an auth strategy's `.formOrQuery` key, say) is delivered, not
/// followed. For credentials in any other kind of body, set ``followsCrossOrigin`` to `false`.
///
/// Set one per client in ``ClientConfiguration/redirectPolicy`` and override it per operation
/// with ``OperationMetadata/redirects``: under an operation's own ``none`` a redirect is the
/// call's answer (its status, `Location` and body), for a call that follows it itself; under a
/// client's ``none`` it is an error like any other non-2xx answer. The
/// pipeline's redirect stage applies it hop by hop; transports send one hop and never follow a
/// redirect themselves (see <doc:RequestPipeline>).
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects followed for one request; 0 delivers the 3xx response as it is.
    public var maxRedirects: Int
    /// Whether to follow a redirect to another origin (with credentials stripped) or to
    /// deliver it as a response.
    public var followsCrossOrigin: Bool
    /// Headers removed when a redirect leaves the origin.
    public var credentialHeaders: Set<HTTPField.Name>

    /// Creates a policy.
    public init(
        maxRedirects: Int = 5,
        followsCrossOrigin: Bool = true,
        credentialHeaders: Set<HTTPField.Name> = [.authorization, .cookie, .proxyAuthorization]
    ) {
        self.maxRedirects = maxRedirects
        self.followsCrossOrigin = followsCrossOrigin
        self.credentialHeaders = credentialHeaders
    }

    /// Follow up to 5 redirects, stripping credentials across origins.
    public static let `default` = RedirectPolicy()
    /// Never follow: 3xx responses are delivered as they are.
    public static let none = RedirectPolicy(maxRedirects: 0)

    /// What to do with one response.
    public enum Decision: Sendable {
        /// Deliver the response to the caller.
        case deliver
        /// Send this request (with this body) next.
        case follow(HTTPRequest, body: Data?, url: URL)
        /// Fail with this error.
        case refuse(TransportError)
    }

    /// Decides whether `response` to `request` (sent to `url`) is followed.
    ///
    /// - Parameter redirectsSoFar: How many redirects this request has already followed.
    public func decide(
        request: HTTPRequest,
        body: Data?,
        url: URL,
        response: HTTPResponse,
        redirectsSoFar: Int
    ) -> Decision {
        let status = response.status.code
        guard mayFollow(response), let location = response.headerFields[.location] else { return .deliver }
        guard redirectsSoFar < maxRedirects else {
            return .refuse(refusal("Stopped after \(maxRedirects) redirects."))
        }
        guard let target = URL(string: location, relativeTo: url)?.absoluteURL,
            let targetScheme = target.scheme?.lowercased(), ["http", "https"].contains(targetScheme),
            target.host != nil
        else {
            return .refuse(refusal("The server redirected to an unusable location."))
        }
        let currentScheme = url.scheme?.lowercased()
        if currentScheme == "https" && targetScheme == "http" {
            return .refuse(refusal("Refused a redirect from https to http."))
        }
        // Plain http stays where the caller already chose it: this machine, or the same origin.
        if targetScheme == "http", let host = target.host, !URLPolicy.isLoopback(host: host),
            currentScheme != "http" || !Self.sameOrigin(url, target)
        {
            return .refuse(refusal("Refused a redirect to plain http on another machine."))
        }
        var next = HTTPRequest(method: request.method, url: target, headerFields: request.headerFields)
        var nextBody = body
        if Self.turnsIntoGET(request.method, status: status) {
            if request.method != .head { next.method = .get }
            nextBody = nil
            // Fields that described the body go with it (RFC 9110 §15.4).
            for name in Self.contentFields { next.headerFields[name] = nil }
        }
        if !Self.sameOrigin(url, target) {
            guard followsCrossOrigin else { return .deliver }
            for name in credentialHeaders { next.headerFields[name] = nil }
        }
        return .follow(next, body: nextBody, url: target)
    }

    /// Whether a redirect with `status` turns a `method` request into a GET: a 303, or a 301 or
    /// 302 after a POST (RFC 9110 §15.4). The server handled the request before redirecting.
    static func turnsIntoGET(_ method: HTTPRequest.Method, status: Int) -> Bool {
        status == 303 || ((status == 301 || status == 302) && method == .post)
    }

    /// The fields that describe a request's body, dropped when a redirect turns it into a GET.
    static let contentFields: [HTTPField.Name] = [
        .contentType, .contentLength, .contentEncoding, .contentLanguage, .contentLocation,
        HTTPField.Name("Content-Digest"), HTTPField.Name("Repr-Digest"), HTTPField.Name("Digest"),
    ].compactMap { $0 }

    /// Whether `response` is a redirect this policy may follow: a 301, 302, 303, 307 or 308 with a
    /// `Location`, under a policy that follows any. Cheap, so a caller can skip working out the
    /// request's URL for every other answer.
    func mayFollow(_ response: HTTPResponse) -> Bool {
        maxRedirects > 0 && Self.redirectStatuses.contains(response.status.code)
            && response.headerFields.contains(.location)
    }

    /// The statuses that redirect: 301, 302, 303, 307 and 308.
    public static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Whether two URLs share scheme, host and port (default ports filled in).
    public static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : 80)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(lhs) == origin(rhs)
    }

    private func refusal(_ message: String) -> TransportError {
        TransportError(.redirectRefused, requestMayHaveBeenSent: true, message: message)
    }
}
