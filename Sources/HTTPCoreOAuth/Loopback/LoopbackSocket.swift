import Foundation
import HTTPCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few POSIX socket calls the loopback listener needs, non-blocking throughout.
enum LoopbackSocket {
    /// A listening TCP socket on 127.0.0.1 and its port.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` naming the port when it cannot be bound.
    static func openListener(port: Int) throws -> (descriptor: Int32, port: Int) {
        #if canImport(Darwin)
        let stream = SOCK_STREAM
        #else
        let stream = Int32(SOCK_STREAM.rawValue)
        #endif
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw failure("could not be opened", port: port) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0, makeNonBlocking(descriptor) else {
            close(descriptor)
            throw failure("is taken or cannot be used", port: port)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            close(descriptor)
            throw failure("could not be read back", port: port)
        }
        return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
    }

    /// The next pending connection, non-blocking; `nil` when none is waiting.
    static func acceptConnection(_ listener: Int32) -> Int32? {
        while true {
            let connection = accept(listener, nil, nil)
            if connection >= 0 {
                guard makeNonBlocking(connection) else {
                    close(connection)
                    return nil
                }
                #if canImport(Darwin)
                var noSignal: Int32 = 1
                setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
                #endif
                return connection
            }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// What arrived on `connection`, up to `limit` bytes: `.data` (possibly empty when nothing
    /// is waiting) or `.closed`.
    enum ReadResult {
        case data([UInt8])
        case closed
    }

    static func read(_ connection: Int32, limit: Int) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: max(limit, 1))
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .data(Array(buffer[..<count])) }
            if count == 0 { return .closed }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .data([]) : .closed
        }
    }

    /// Writes `bytes` (a small response, which fits a fresh socket's buffer), giving up on
    /// error.
    static func write(_ connection: Int32, _ bytes: [UInt8]) {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        var sent = 0
        var attempts = 0
        while sent < bytes.count, attempts < 1000 {
            attempts += 1
            let count = bytes.withUnsafeBytes {
                send(connection, $0.baseAddress.map { $0 + sent }, bytes.count - sent, flags)
            }
            if count > 0 {
                sent += count
            } else if count < 0, errno != EINTR, errno != EAGAIN, errno != EWOULDBLOCK {
                return
            }
        }
    }

    private static func makeNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        return flags >= 0 && fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
    }

    private static func failure(_ what: String, port: Int) -> APIError {
        let which = port == 0 ? "A free loopback port" : "Loopback port \(port)"
        return .usage("\(which) \(what).", hint: "Choose another port, or let the system pick one (0).")
    }
}
