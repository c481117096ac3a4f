import Foundation
import HTTPCoreTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a TCP socket can bind `port` (0: any) on the IPv4 or the IPv6 loopback address now.
func canBindLoopback(port: Int = 0, ipv6: Bool = false) -> Bool {
    guard let (descriptor, _) = try? LoopbackSocket.bound(port: port, ipv6: ipv6, listening: false) else {
        return false
    }
    close(descriptor)
    return true
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
