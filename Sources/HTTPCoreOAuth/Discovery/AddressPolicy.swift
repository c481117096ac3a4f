import Foundation
import HTTPCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which URLs discovery may fetch, and which endpoints it may accept.
///
/// https only. Unless local addresses are allowed (tests, a sandbox on this machine), a host
/// that names this machine or a private network is refused: `localhost` and `*.localhost`,
/// `*.local`, and IP literals in the loopback, private (RFC 1918, RFC 4193), link-local,
/// shared (RFC 6598) and unspecified ranges, IPv4-mapped IPv6 included. With local addresses
/// allowed, plain http to a loopback host is accepted too.
///
/// The limit: a host name is judged as written, not by the address it resolves to, because the
/// transports (URLSession, AsyncHTTPClient) resolve names themselves and offer no hook to refuse
/// an address when connecting. A public name that resolves to a private address is not caught.
struct AddressPolicy: Sendable {
    var allowsLocalAddresses: Bool

    /// Why `url` may not be fetched, or `nil` when it may.
    func refusal(_ url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
        else { return "it is not an absolute URL with a host" }
        guard components.user == nil, components.password == nil else { return "it carries user information" }
        let isLoopback = URLPolicy.isLoopback(host: host)
        switch scheme {
        case "https": break
        case "http" where allowsLocalAddresses && isLoopback: break
        default: return "it is not https"
        }
        if !allowsLocalAddresses, Self.isLocal(host: host) { return "its host \(host) is a local or private address" }
        return nil
    }

    /// Whether `host` names this machine or a private network by its spelling.
    static func isLocal(host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
        if name == "localhost" || name.hasSuffix(".localhost") || name.hasSuffix(".local") { return true }
        if let address = ipv4(name) { return isPrivate(ipv4: address) }
        if let bytes = ipv6(name) { return isPrivate(ipv6: bytes) }
        return false
    }

    /// The IPv4 address in any spelling `inet_aton` accepts (`127.1`, `2130706433`, `0x7f.1`),
    /// since a transport may hand such a host to the system resolver as it is.
    private static func ipv4(_ text: String) -> UInt32? {
        guard !text.isEmpty, text.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == "x" }) else { return nil }
        var address = in_addr()
        guard inet_aton(text, &address) != 0 else { return nil }
        return UInt32(bigEndian: address.s_addr)
    }

    private static func ipv6(_ text: String) -> [UInt8]? {
        guard text.contains(":") else { return nil }
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    private static func isPrivate(ipv4 address: UInt32) -> Bool {
        let ranges: [(UInt32, Int)] = [
            (0x0000_0000, 8),  // "this network"
            (0x0A00_0000, 8),  // 10/8
            (0x6440_0000, 10),  // 100.64/10, shared address space
            (0x7F00_0000, 8),  // loopback
            (0xA9FE_0000, 16),  // link-local
            (0xAC10_0000, 12),  // 172.16/12
            (0xC0A8_0000, 16),  // 192.168/16
        ]
        return ranges.contains { base, bits in address >> (32 - UInt32(bits)) == base >> (32 - UInt32(bits)) }
    }

    private static func isPrivate(ipv6 bytes: [UInt8]) -> Bool {
        guard bytes.count == 16 else { return true }
        if bytes.allSatisfy({ $0 == 0 }) { return true }  // ::
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }  // ::1
        if bytes[0] & 0xFE == 0xFC { return true }  // fc00::/7, unique local
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return true }  // fe80::/10, link-local
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            let mapped = bytes[12...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return isPrivate(ipv4: mapped)
        }
        return false
    }
}
