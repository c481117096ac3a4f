import Basecamp
import Foundation
import HTTPCore
import HTTPCoreOAuth

/// What `basecamp auth login` learned and later runs need: the client that signed in (its
/// secret too, since refreshing needs it; the file is the user's alone), the authorization
/// server's token endpoint, who signed in and the Basecamp accounts the token reaches.
struct StoredLogin: Codable, Sendable {
    /// A Basecamp account the sign-in reaches.
    struct Account: Codable, Sendable, Hashable {
        var id: Int
        var name: String
    }

    var clientID: String
    var clientSecret: String?
    /// The redirect URI the code was issued for; Launchpad wants it again on every refresh.
    var redirectURI: URL?
    var tokenEndpoint: URL
    /// `standard` (`grant_type=…`) or `legacy` (Launchpad's `type=…`).
    var tokenRequestStyle: String
    var issuer: String?
    /// Where `authorization.json` is asked for.
    var launchpadURL: URL
    /// The API the sign-in was made for; commands use it when no base URL is given.
    var apiBaseURL: URL
    var name: String
    var email: String?
    var accounts: [Account]
    var signedInAt: Date

    /// The account commands use when none is named: the only one there is.
    var defaultAccount: Account? { accounts.count == 1 ? accounts.first : nil }

    /// The accounts a token reaches: when its `resource` binds it to one account
    /// (`urn:bc:account:123`) and that account is listed, that one alone; otherwise all.
    static func accounts(_ accounts: [Account], boundTo resource: String?) -> [Account] {
        let prefix = "urn:bc:account:"
        guard let resource, resource.hasPrefix(prefix), let id = Int(resource.dropFirst(prefix.count)) else {
            return accounts
        }
        let bound = accounts.filter { $0.id == id }
        return bound.isEmpty ? accounts : bound
    }

    /// The OAuth client that refreshes this sign-in's tokens.
    ///
    /// - Parameter origin: Under `--sandbox`, the running sandbox's origin: the stored
    ///   endpoints are moved onto it, since each run's sandbox listens on a new port.
    func oauthClient(network: OAuthNetwork, origin: URL?) -> OAuthClient {
        let registration = OAuthClientRegistration(
            clientID: clientID,
            clientSecret: clientSecret,
            redirectURI: redirectURI
        )
        let server = AuthorizationServer(
            issuer: issuer,
            authorizationEndpoint: nil,
            tokenEndpoint: Self.rebased(tokenEndpoint, onto: origin),
            tokenRequestStyle: tokenRequestStyle == "legacy" ? .legacyType : .standard
        )
        return OAuthClient(registration: registration, server: server, network: network)
    }

    /// `url` with its scheme, host and port replaced by `origin`'s (unchanged without one).
    static func rebased(_ url: URL, onto origin: URL?) -> URL {
        guard let origin, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.scheme = origin.scheme
        components.host = origin.host
        components.port = origin.port
        return components.url ?? url
    }
}
