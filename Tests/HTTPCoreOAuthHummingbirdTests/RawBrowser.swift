import Foundation
import HTTPCoreOAuth

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A browser that sends exactly the request head it is given, for requests URLSession will not
/// make (a foreign `Host`, a bad request target), over a plain socket on a thread of its own.
enum RawBrowser {
    /// Whether this machine has an IPv6 loopback interface to test on.
    static let hasIPv6Loopback: Bool = {
        let probe = socket(AF_INET6, streamType, 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }()

    #if canImport(Darwin)
    private static let streamType = SOCK_STREAM
    #else
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    #endif

    /// Sends `head` to `host`:`port` and returns everything the server answered before it closed
    /// the connection, or before a minute without a byte (so a listener that never answers fails
    /// its test instead of hanging the suite).
    static func exchange(host: LoopbackHost = .ipv4, port: Int, _ head: String) async -> String {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                let descriptor = connect(host, port: port)
                var answer = [UInt8]()
                if descriptor >= 0 {
                    var patience = timeval(tv_sec: 60, tv_usec: 0)
                    _ = setsockopt(
                        descriptor,
                        SOL_SOCKET,
                        SO_RCVTIMEO,
                        &patience,
                        socklen_t(MemoryLayout<timeval>.size)
                    )
                    let bytes = Array(head.utf8)
                    _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, bytes.count, 0) }
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while true {
                        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                        if count <= 0 { break }
                        answer += buffer[..<count]
                    }
                    close(descriptor)
                }
                continuation.resume(returning: String(decoding: answer, as: UTF8.self))
            }
            thread.start()
        }
    }

    /// A connected socket, or -1.
    private static func connect(_ host: LoopbackHost, port: Int) -> Int32 {
        switch host {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port)).bigEndian
            address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            return connect(AF_INET, &address)
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port)).bigEndian
            address.sin6_addr = in6addr_loopback
            return connect(AF_INET6, &address)
        }
    }

    private static func connect<Address>(_ family: Int32, _ address: inout Address) -> Int32 {
        let descriptor = socket(family, streamType, 0)
        guard descriptor >= 0 else { return -1 }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                #if canImport(Darwin)
                Darwin.connect(descriptor, pointer, socklen_t(MemoryLayout<Address>.size))
                #else
                Glibc.connect(descriptor, pointer, socklen_t(MemoryLayout<Address>.size))
                #endif
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return -1
        }
        return descriptor
    }
}
