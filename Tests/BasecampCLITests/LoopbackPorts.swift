import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a TCP socket can bind `port` (0: any) on the IPv4 or the IPv6 loopback address now.
func canBindLoopback(port: Int = 0, ipv6: Bool = false) -> Bool {
    #if canImport(Glibc)
    let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let networkPort = in_port_t(UInt16(port).bigEndian)
    if ipv6 {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = networkPort
        address.sin6_addr = in6addr_loopback
        return bind(descriptor, to: &address)
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = networkPort
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return bind(descriptor, to: &address)
}

private func bind<Address>(_ descriptor: Int32, to address: inout Address) -> Bool {
    withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<Address>.size)) == 0
        }
    }
}

/// A loopback port that is free now and lies below the ephemeral ranges (Linux hands out 32768
/// and up, macOS 49152 and up) that `--port 0` and outgoing connections draw from: a test that
/// frees a port and binds it again must not lose it to another socket of the suite meanwhile.
func portBelowEphemeralRange() throws -> Int {
    for _ in 0..<100 {
        let port = Int.random(in: 20_000..<32_000)
        if canBindLoopback(port: port) { return port }
    }
    throw NoFreePort()
}

/// Every port tried below the ephemeral ranges was taken.
struct NoFreePort: Error, CustomStringConvertible {
    var description: String { "no free loopback port in 20000-31999" }
}
