import Foundation
import HTTPCoreTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback TCP server that answers every request with the same bytes, written as they are.
///
/// For responses the sandbox cannot send because Hummingbird's encoder corrects them, such as a
/// 304 that announces a `Content-Length`. It reads each request's head up to its blank line and
/// ignores any body, so use it for body-less requests.
final class CannedResponseServer: Sendable {
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    private let listener: Int32

    /// Starts listening; `response` is the whole answer, status line to body.
    init(response: String) throws {
        let (listener, port) = try LoopbackSocket.bound(listening: true)
        self.listener = listener
        self.port = port
        let bytes = Array(response.utf8)
        Thread.detachNewThread {
            Self.serve(listener, bytes)
        }
    }

    /// Stops accepting; connections already open end when their client closes them.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func serve(_ listener: Int32, _ response: [UInt8]) {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            Thread.detachNewThread { answer(connection, response) }
        }
    }

    /// Answers each request head on `connection` until the client closes it.
    private static func answer(_ connection: Int32, _ response: [UInt8]) {
        defer { close(connection) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let blankLine: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            pending += buffer[..<count]
            while let end = pending.firstRange(of: blankLine) {
                pending.removeSubrange(..<end.upperBound)
                guard response.withUnsafeBytes({ write(connection, $0.baseAddress, $0.count) }) == response.count else {
                    return
                }
            }
        }
    }
}
