public import Foundation

extension AuthorizationServer {
    /// Launchpad's address, `https://launchpad.37signals.com`.
    public static let launchpadURL: URL = {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "launchpad.37signals.com"
        return components.url ?? URL(fileURLWithPath: "/")
    }()

    /// Launchpad's issuer identifier as a Basecamp resource may advertise it.
    public static let launchpadIssuer = "https://launchpad.37signals.com"

    /// Launchpad, Basecamp's authorization server today: `/authorization/new` and
    /// `/authorization/token`, with the drafts' spelling (`type=web_server`, `type=refresh`) and
    /// `redirect_uri` repeated on refresh.
    ///
    /// - Parameter base: Launchpad's address; a sandbox's `…/launchpad` in tests.
    public static func launchpad(at base: URL = launchpadURL) -> AuthorizationServer {
        let root = launchpadRoot(base)
        return AuthorizationServer(
            authorizationEndpoint: URL(string: root + "/authorization/new"),
            tokenEndpoint: URL(string: root + "/authorization/token") ?? base,
            tokenRequestStyle: .legacyType
        )
    }

    /// `base` as text without a trailing slash.
    static func launchpadRoot(_ base: URL) -> String {
        let text = base.absoluteString
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }
}

extension IssuerSelection {
    /// Basecamp's issuer rule, usable without the Basecamp SDK: the expected issuer if given;
    /// otherwise the one advertised issuer that is not Launchpad, with the standard grant
    /// spelling; none means Launchpad; two or more is an error.
    ///
    /// - Parameters:
    ///   - expectedIssuer: The issuer to require, if any.
    ///   - base: Launchpad's address, the fallback.
    public static func basecamp(
        expectedIssuer: String? = nil,
        launchpad base: URL = AuthorizationServer.launchpadURL
    ) -> IssuerSelection {
        let root = AuthorizationServer.launchpadRoot(base)
        let launchpad = AuthorizationServer.launchpadIssuer
        return IssuerSelection(
            expectedIssuer: expectedIssuer,
            legacyIssuers: [launchpad, launchpad + "/", root, root + "/"],
            fallback: .launchpad(at: base),
            tokenRequestStyle: .standard
        )
    }
}
