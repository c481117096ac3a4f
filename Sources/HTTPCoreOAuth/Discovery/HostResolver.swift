import Foundation
import HTTPCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Turns a host name into the addresses a connection to it may reach, so discovery can judge
/// them before it fetches.
///
/// Tests pass one that maps names to chosen addresses (`10.0.0.1`, `::1`, …); everything else
/// uses ``SystemHostResolver``.
public protocol HostResolver: Sendable {
    /// The addresses `host` resolves to; `host` is a name, never an IP literal.
    ///
    /// - Throws: ``HTTPCore/APIError/network(_:)`` when the name does not resolve.
    func addresses(of host: String) async throws -> [IPAddress]
}

/// The system's resolver (`getaddrinfo`), the one the transports use, run off the
/// cooperative thread pool since it blocks.
public struct SystemHostResolver: HostResolver {
    /// Creates the resolver.
    public init() {}

    /// Every IPv4 and IPv6 address `getaddrinfo` gives for `host`.
    public func addresses(of host: String) async throws -> [IPAddress] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try Self.lookUp(host) })
            }
        }
    }

    private static func lookUp(_ host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0 else {
            throw APIError.network(
                APIError.Details(
                    message: "The host \(host) could not be resolved.",
                    hint: "Check the name and the network."
                )
            )
        }
        var addresses: [IPAddress] = []
        var next = list
        while let entry = next?.pointee {
            next = entry.ai_next
            guard let socketAddress = entry.ai_addr else { continue }
            switch Int32(entry.ai_family) {
            case AF_INET:
                let address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                if let ip = withUnsafeBytes(of: address, { IPAddress(bytes: Array($0)) }) { addresses.append(ip) }
            case AF_INET6:
                let address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_addr
                }
                if let ip = withUnsafeBytes(of: address, { IPAddress(bytes: Array($0)) }) { addresses.append(ip) }
            default:
                continue
            }
        }
        return addresses
    }
}
