import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An origin discovery may fetch from: `https://host[:port]` with an optional `/`, or plain http
/// to `localhost` or a loopback literal, kept exactly as given for binding.
///
/// The raw string is read first, so forms Foundation's parser normalises or hides (`host:`, an
/// empty `@`, a bare `#`, `:+1`, `/a/..`) are refused by name; then Foundation's parser, the
/// transports' own, must agree, failing closed.
struct DiscoveryOrigin: Sendable {
    /// The origin exactly as given.
    let text: String
    /// The host as the transport connects to it: a name, or an IP literal without brackets.
    let host: String
    /// The parsed URL.
    let url: URL

    /// Parses `text`, naming the first part (in the order they appear) that is not allowed.
    init(_ text: String) throws(OriginRefusal) {
        guard let colon = text.firstIndex(of: ":") else { throw OriginRefusal(.scheme) }
        let scheme = text[..<colon].lowercased()
        guard scheme == "https" || scheme == "http" else { throw OriginRefusal(.scheme) }
        let afterScheme = text[text.index(after: colon)...]
        guard afterScheme.hasPrefix("//") else { throw OriginRefusal(.host) }
        let rest = afterScheme.dropFirst(2)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if authority.contains("@") { throw OriginRefusal(.userinfo) }
        let (host, isIPv6) = try Self.host(in: authority)
        let tail = rest[authorityEnd...]
        let pathEnd = tail.firstIndex { $0 == "?" || $0 == "#" } ?? tail.endIndex
        guard tail[..<pathEnd].isEmpty || tail[..<pathEnd] == "/" else { throw OriginRefusal(.path) }
        if tail.contains("?") { throw OriginRefusal(.query) }
        if tail.contains("#") { throw OriginRefusal(.fragment) }
        if scheme == "http", !Self.isLoopbackLiteral(host, isIPv6: isIPv6) { throw OriginRefusal(.scheme) }

        guard let components = URLComponents(string: text), let url = URL(string: text) else {
            throw OriginRefusal(.syntax)
        }
        guard components.scheme?.lowercased() == scheme else { throw OriginRefusal(.scheme) }
        guard components.user == nil, components.password == nil else { throw OriginRefusal(.userinfo) }
        guard let parsedHost = components.host, !parsedHost.isEmpty, url.host != nil else { throw OriginRefusal(.host) }
        guard components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/" else {
            throw OriginRefusal(.path)
        }
        guard components.percentEncodedQuery == nil else { throw OriginRefusal(.query) }
        guard components.percentEncodedFragment == nil else { throw OriginRefusal(.fragment) }
        self.text = text
        self.host = host
        self.url = url
    }

    /// `ORIGIN/.well-known/NAME`, the origin without its `/`.
    func wellKnownURL(_ name: String) -> URL? {
        URL(string: (text.hasSuffix("/") ? String(text.dropLast()) : text) + "/.well-known/" + name)
    }

    /// The host of an authority without userinfo: a bracketed IPv6 literal or a name, then an
    /// optional port that is a plain decimal in 1–65535.
    private static func host(in authority: Substring) throws(OriginRefusal) -> (String, Bool) {
        let host: Substring
        let port: Substring?
        let isIPv6 = authority.hasPrefix("[")
        if isIPv6 {
            guard let close = authority.firstIndex(of: "]") else { throw OriginRefusal(.host) }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw OriginRefusal(.host) }
            port = after.isEmpty ? nil : after.dropFirst()
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(host), &address) == 1 else { throw OriginRefusal(.host) }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            port = parts.count > 1 ? parts[1] : nil
            let allowed = CharacterSet(
                charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._"
            )
            guard !host.isEmpty, host.unicodeScalars.allSatisfy(allowed.contains) else { throw OriginRefusal(.host) }
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(port), (1...65535).contains(value)
            else { throw OriginRefusal(.port) }
        }
        return (String(host), isIPv6)
    }

    /// `localhost`, an IPv4 literal in 127/8 or `::1`: the hosts plain http may reach.
    private static func isLoopbackLiteral(_ host: String, isIPv6: Bool) -> Bool {
        if isIPv6 { return IPAddress(host)?.range == .loopback }
        if host.lowercased() == "localhost" { return true }
        guard let address = IPAddress(host), address.bytes.count == 4 else { return false }
        return address.range == .loopback
    }
}

/// The part of an origin string that is not allowed.
struct OriginRefusal: Error {
    let part: DiscoveryError.OriginPart

    init(_ part: DiscoveryError.OriginPart) { self.part = part }
}
