import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An IPv4 or IPv6 address, as a ``HostResolver`` returns it and the address policy judges it.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address in network order: 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// The address in strict dotted-quad or IPv6 text (`10.0.0.1`, `::1`); `nil` for anything else.
    public init?(_ text: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    /// The address from its bytes in network order; `nil` unless there are 4 or 16.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The IPv4 address a host name spells in any form the system resolver accepts as a
    /// number (`127.1`, `2130706433`, `0x7f.1`), since a transport hands such a host to it as is.
    static func numericIPv4(_ host: String) -> IPAddress? {
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "." || $0 == "x" || $0 == "X") })
        else { return nil }
        var address = in_addr()
        guard inet_aton(host, &address) != 0 else { return nil }
        return IPAddress(bytes: withUnsafeBytes(of: &address) { Array($0) })
    }

    /// The standard text form.
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let text = bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard text != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The range discovery refuses this address for, or `nil` for a public address.
    var range: DiscoveryError.AddressRange? {
        bytes.count == 4 ? Self.range(ipv4: bytes) : Self.range(ipv6: bytes)
    }

    private static func range(ipv4 bytes: [UInt8]) -> DiscoveryError.AddressRange? {
        let value = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        func within(_ base: UInt32, _ bits: UInt32) -> Bool { value >> (32 - bits) == base >> (32 - bits) }
        if within(0x7F00_0000, 8) { return .loopback }
        if within(0x0A00_0000, 8) || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16) { return .privateNetwork }
        if within(0x6440_0000, 10) { return .sharedAddressSpace }
        if within(0xA9FE_0000, 16) { return .linkLocal }
        let special: [(UInt32, UInt32)] = [
            (0x0000_0000, 8),  // "this network"
            (0xC000_0000, 24),  // IETF protocol assignments
            (0xC000_0200, 24),  // TEST-NET-1
            (0xC058_6300, 24),  // 6to4 relay anycast
            (0xC612_0000, 15),  // benchmarking
            (0xC633_6400, 24),  // TEST-NET-2
            (0xCB00_7100, 24),  // TEST-NET-3
            (0xE000_0000, 4),  // multicast
            (0xF000_0000, 4),  // reserved, broadcast included
        ]
        return special.contains { within($0.0, $0.1) } ? .specialPurpose : nil
    }

    private static func range(ipv6 bytes: [UInt8]) -> DiscoveryError.AddressRange? {
        let zeros = { (range: Range<Int>) in bytes[range].allSatisfy { $0 == 0 } }
        if zeros(0..<15) { return bytes[15] == 1 ? .loopback : .specialPurpose }  // ::1, ::
        // Addresses that carry an IPv4 address are judged by it: mapped, NAT64 and 6to4.
        if zeros(0..<10), bytes[10] == 0xFF, bytes[11] == 0xFF { return range(ipv4: Array(bytes[12...])) }
        if bytes[0...3] == [0x00, 0x64, 0xFF, 0x9B], zeros(4..<12) { return range(ipv4: Array(bytes[12...])) }
        if bytes[0] == 0x20, bytes[1] == 0x02 { return range(ipv4: Array(bytes[2..<6])) }
        if zeros(0..<12) { return .specialPurpose }  // IPv4-compatible, deprecated
        if bytes[0] & 0xFE == 0xFC || (bytes[0] == 0xFE && bytes[1] & 0xC0 == 0xC0) { return .privateNetwork }
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return .linkLocal }
        if bytes[0] == 0xFF { return .specialPurpose }  // multicast
        if bytes[0...1] == [0x20, 0x01], bytes[2] & 0xFE == 0x00 { return .specialPurpose }  // 2001::/23
        if bytes[0...3] == [0x20, 0x01, 0x0D, 0xB8] { return .specialPurpose }  // documentation
        if bytes[0...1] == [0x3F, 0xFF], bytes[2] & 0xF0 == 0x00 { return .specialPurpose }  // documentation
        if bytes[0...1] == [0x01, 0x00], zeros(2..<8) { return .specialPurpose }  // discard-only
        if bytes[0...3] == [0x00, 0x64, 0xFF, 0x9B], bytes[4...5] == [0x00, 0x01] { return .specialPurpose }
        return nil
    }
}
