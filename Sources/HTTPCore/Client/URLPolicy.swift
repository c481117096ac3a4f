import Foundation

/// Which URLs a client may send requests to: https anywhere, plain http only to this machine.
public enum URLPolicy {
    /// Whether `host` names this machine: `localhost`, `*.localhost`, `127.0.0.0/8` or `::1`.
    public static func isLoopback(host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCII) && (UInt8(octet) != nil)
        }
    }

    /// Checks a base URL and returns it without a trailing slash.
    ///
    /// - Parameter allowingInsecureHTTP: Accept plain http to any host (see
    ///   ``ClientConfiguration/allowsInsecureHTTP``).
    /// - Throws: ``APIError/usage(_:)`` when the URL has no host, is not http(s), is plain
    ///   http to another machine (unless allowed), or carries a query or fragment.
    public static func validatedBaseURL(_ url: URL, allowingInsecureHTTP: Bool = false) throws -> URL {
        let components = try checkedTarget(url, allowingInsecureHTTP: allowingInsecureHTTP)
        guard components.query == nil, components.fragment == nil else {
            throw APIError.usage("A base URL cannot carry a query or fragment.")
        }
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text) ?? url
    }

    /// Checks that a request may be sent to `url`: http(s), a host, and https unless loopback
    /// (or `allowingInsecureHTTP`).
    ///
    /// - Throws: ``APIError/usage(_:)`` otherwise.
    @discardableResult
    public static func checkedTarget(_ url: URL, allowingInsecureHTTP: Bool = false) throws -> URLComponents {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
        else {
            throw APIError.usage("The URL \"\(Redactor().redact(url))\" has no scheme or host.")
        }
        switch scheme {
        case "https": break
        case "http":
            guard allowingInsecureHTTP || isLoopback(host: host) else {
                throw APIError.usage(
                    "Refusing plain http to \(host): credentials would travel unencrypted.",
                    hint: "Use an https URL; http is allowed only for localhost, 127.0.0.1 and [::1]."
                )
            }
        default:
            throw APIError.usage("Unsupported URL scheme \"\(scheme)\"; use https.")
        }
        return components
    }
}
