import Foundation
import HTTPTypes

extension ResponseCache {
    /// The parts of a request's key that do not depend on a stored response.
    struct RequestKey {
        var primary: String
        /// The request's URL as text (a request carries no fragment).
        var url: String

        /// The key that groups every entry for the URL; hashed only when an entry is stored.
        var urlKey: String { ResponseCache.urlKey(text: url) }
    }

    /// Headers whose values identify who is asking; their digest scopes every key, so one
    /// user's entries are never served to another.
    static let credentialHeaders: [HTTPField.Name] = [.authorization, .proxyAuthorization, .cookie]

    /// The key for `request`, whose URL is `url`: its method, URL and the credential headers it
    /// carries, in a fixed order whatever the header order (the standard ones first, then the
    /// redactor's others by name).
    static func requestKey(for request: HTTPRequest, url: String, redactor: Redactor) -> RequestKey {
        var hasher = CacheKeyHasher()
        hasher.update(field: "httpcore-cache-v1")
        hasher.update(field: request.method.rawValue)
        hasher.update(field: url)
        var present: [HTTPField.Name] = []
        for field in request.headerFields
        where !present.contains(field.name)
            && (credentialHeaders.contains(field.name) || redactor.secretHeaders.contains(field.name))
        {
            present.append(field.name)
        }
        present.sort { lhs, rhs in
            let left = credentialHeaders.firstIndex(of: lhs) ?? credentialHeaders.count
            let right = credentialHeaders.firstIndex(of: rhs) ?? credentialHeaders.count
            return left != right ? left < right : lhs.canonicalName < rhs.canonicalName
        }
        for name in present {
            hasher.update(field: name.canonicalName)
            for value in request.headerFields[values: name] { hasher.update(field: value) }
        }
        return RequestKey(primary: hasher.finalize(), url: url)
    }

    static func fullKey(primary: String, varyHeaders: [String], request: HTTPFields) -> String {
        guard !varyHeaders.isEmpty else { return primary }
        var hasher = CacheKeyHasher()
        hasher.update(field: primary)
        for name in varyHeaders {
            hasher.update(field: name)
            let values = HTTPField.Name(name).map { request[values: $0] } ?? []
            hasher.update(field: values.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
        }
        return hasher.finalize()
    }

    static func urlKey(_ url: URL) -> String {
        urlKey(text: normalized(url))
    }

    static func urlKey(text: String) -> String {
        var hasher = CacheKeyHasher()
        hasher.update(field: "httpcore-cache-url-v1")
        hasher.update(field: text)
        return hasher.finalize()
    }

    /// The URL without its fragment, which never reaches the server.
    private static func normalized(_ url: URL) -> String {
        let text = url.absoluteString
        guard let hash = text.firstIndex(of: "#") else { return text }
        return String(text[..<hash])
    }
}
