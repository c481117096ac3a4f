import CLISupport
import Foundation
import HTTPCore
import HTTPTypes

extension BasecampSession {
    /// The access token the next request would carry: a stored sign-in's, refreshed (and saved)
    /// first when it expires within the refresh margin, as a request would have it; a token
    /// given with `--token` or `BASECAMP_TOKEN` as it is.
    ///
    /// - Throws: `auth_required` (exit 3) when there is no sign-in (the sandbox's stand-in is
    ///   none) or its refresh was refused; the refresh's error when it failed and the token has
    ///   already expired.
    func currentAccessToken() async throws -> String {
        if case .sandboxStandIn = source { throw Self.notSignedIn(context, profile: profile) }
        // Authorizing a request that is never sent runs the strategy's own refresh-ahead rule,
        // and the header it adds is the token a request would carry.
        let authorized = try await auth.authorize(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"),
            body: nil,
            context: authContext(redactor: auth.redactor)
        )
        let prefix = "Bearer "
        guard let header = authorized.request.headerFields[.authorization], header.hasPrefix(prefix) else {
            throw Self.notSignedIn(context, profile: profile)
        }
        return String(header.dropFirst(prefix.count))
    }

    /// What the auth strategy needs to refresh outside a client: the connection's transport,
    /// clock, `User-Agent` and hooks.
    func authContext(redactor: Redactor) -> AuthContext {
        let transport = connection.transport
        let options = TransportOptions(timeout: connection.configuration.timeout)
        return AuthContext(
            baseURL: connection.configuration.baseURL,
            timeSource: connection.configuration.timeSource,
            redactor: redactor,
            hooks: connection.configuration.hooks,
            userAgent: userAgent.value,
            send: { request, body in try await transport.send(request, body: body, options: options) }
        )
    }
}
