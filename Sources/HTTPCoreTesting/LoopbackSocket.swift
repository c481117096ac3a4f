import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TCP sockets on a loopback address, for a test's own server (one that writes bytes no HTTP
/// server would) or a port that must refuse connections (see ``withRefusingPort(ipv6:isolation:_:)``).
public enum LoopbackSocket {
    /// Binds a new socket to `port` (0: one the system picks) on 127.0.0.1 (or `::1`) and, when
    /// `listening`, listens on it.
    ///
    /// - Returns: The socket's descriptor and its port; the caller closes the descriptor.
    /// - Throws: `POSIXError` when no socket can be made or bound (the port is taken, or there is
    ///   no IPv6 loopback).
    public static func bound(
        port: Int = 0,
        ipv6: Bool = false,
        listening: Bool
    ) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw lastError() }
        let requested = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        let bound: Int?
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            address.sin6_port = requested
            bound = attach(descriptor, &address, listening: listening) ? Int(UInt16(bigEndian: address.sin6_port)) : nil
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = requested
            bound = attach(descriptor, &address, listening: listening) ? Int(UInt16(bigEndian: address.sin_port)) : nil
        }
        guard let bound else {
            let error = lastError()
            close(descriptor)
            throw error
        }
        return (descriptor, bound)
    }

    /// Binds `descriptor` to `address`, listens when asked, and reads the bound port back into
    /// `address`; false when any step fails.
    private static func attach<Address>(_ descriptor: Int32, _ address: inout Address, listening: Bool) -> Bool {
        var length = socklen_t(MemoryLayout<Address>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && (!listening || listen(descriptor, 8) == 0)
                    && getsockname(descriptor, address, &length) == 0
            }
        }
        return bound
    }

    /// The failure `errno` names.
    private static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
    private static let streamType = SOCK_STREAM
    #endif
}

/// Runs `body` with a loopback port that refuses every connection meanwhile, to test how code
/// meets a server that is down.
///
/// The port is bound and never listened on, so no other socket can take it while `body` runs,
/// as one can take the port of a server a test has just stopped.
///
/// ```swift
/// try await withRefusingPort { port in
///     let baseURL = URL(string: "http://127.0.0.1:\(port)")!
///     let client = try Client(configuration: ClientConfiguration(baseURL: baseURL))
///     await expectAPIError(.network) { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
/// }
/// ```
///
/// With `ipv6`, the port is held on `::1`; on a machine without an IPv6 loopback, where nothing
/// can listen there, it is held on 127.0.0.1.
///
/// - Throws: What `body` throws; `POSIXError` when no loopback port can be bound.
public func withRefusingPort<Result>(
    ipv6: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Int) async throws -> Result
) async throws -> Result {
    let held = ipv6 ? try? LoopbackSocket.bound(ipv6: true, listening: false) : nil
    let (descriptor, port) = try held ?? LoopbackSocket.bound(listening: false)
    defer { close(descriptor) }
    return try await body(port)
}
