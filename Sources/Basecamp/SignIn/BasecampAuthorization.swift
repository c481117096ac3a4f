public import Foundation

/// Who a token belongs to and which accounts it reaches: Launchpad's `authorization.json`.
///
/// Get it with ``BasecampClient/authorization(launchpad:)``. The list holds every 37signals
/// product the person uses; ``basecampAccounts`` keeps the Basecamp ones (`product == "bc3"`).
public struct BasecampAuthorization: Sendable, Hashable, Decodable {
    /// When the access token expires, if Launchpad said.
    public var expiresAt: Date?
    /// The person signed in.
    public var identity: Identity
    /// Every account the token reaches, of every product.
    public var accounts: [Account]

    /// The Basecamp accounts only.
    public var basecampAccounts: [Account] { accounts.filter(\.isBasecamp) }

    /// The person a token belongs to.
    public struct Identity: Sendable, Hashable, Decodable {
        /// Their Launchpad id.
        public var id: Int
        /// First name.
        public var firstName: String?
        /// Last name.
        public var lastName: String?
        /// Email address.
        public var emailAddress: String?

        private enum CodingKeys: String, CodingKey {
            case id
            case firstName = "first_name"
            case lastName = "last_name"
            case emailAddress = "email_address"
        }
    }

    /// One account of one product.
    public struct Account: Sendable, Hashable, Decodable {
        /// The product: `bc3` for Basecamp, others (`hey`, …) for other 37signals apps.
        public var product: String
        /// The account id; for Basecamp, the digits after the host in its URLs.
        public var id: Int
        /// The account's name.
        public var name: String
        /// Its API address, e.g. `https://3.basecampapi.com/999999999`.
        public var href: URL?
        /// Its address in the browser.
        public var appHref: URL?

        /// Whether this is a Basecamp account.
        public var isBasecamp: Bool { product == "bc3" }

        /// The API base URL to give ``BasecampConfig`` for this account: ``href`` without the
        /// account id (`https://3.basecampapi.com`).
        public var apiBaseURL: URL? {
            guard let href, href.lastPathComponent == String(id) else { return href }
            var text = href.deletingLastPathComponent().absoluteString
            while text.hasSuffix("/") { text.removeLast() }
            return URL(string: text) ?? href
        }

        private enum CodingKeys: String, CodingKey {
            case product, id, name, href
            case appHref = "app_href"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case expiresAt = "expires_at"
        case identity
        case accounts
    }
}
