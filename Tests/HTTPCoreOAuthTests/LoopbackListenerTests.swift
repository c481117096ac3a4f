import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Sends `head` to 127.0.0.1:`port` over a plain socket on a thread of its own (a browser, for
/// requests URLSession will not make) and returns everything the server answered.
func rawExchange(port: Int, _ head: String) async -> String {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            #if canImport(Darwin)
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
            #else
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port)).bigEndian
            address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            var answer = [UInt8]()
            if connected == 0 {
                let bytes = Array(head.utf8)
                _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, bytes.count, 0) }
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    if count <= 0 { break }
                    answer += buffer[..<count]
                }
            }
            close(descriptor)
            continuation.resume(returning: String(decoding: answer, as: UTF8.self))
        }
        thread.start()
    }
}

@Suite("Loopback redirect listener")
struct LoopbackListenerTests {
    private func get(_ listener: LoopbackRedirectListener, _ target: String, host: String? = nil) async -> String {
        await rawExchange(
            port: listener.port,
            "GET \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(listener.port)")\r\nUser-Agent: test\r\n\r\n"
        )
    }

    @Test("The browser's callback ends the wait with the full URL and gets a no-store page")
    func callback() async throws {
        let listener = try LoopbackRedirectListener()
        #expect(listener.port > 0)
        #expect(listener.redirectURI.absoluteString == "http://127.0.0.1:\(listener.port)/callback")
        async let received = listener.waitForCallback(timeout: .seconds(30))
        let page = await get(listener, "/callback?code=abc&state=xyz")
        let callback = try await received
        #expect(callback.absoluteString == "http://127.0.0.1:\(listener.port)/callback?code=abc&state=xyz")
        #expect(page.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(page.contains("Cache-Control: no-store"))
        #expect(page.contains("Referrer-Policy: no-referrer"))
        #expect(page.contains("Signed in."))
        #expect(!page.contains("abc"))
        listener.close()
    }

    @Test("Other paths, other methods, foreign Host headers and refused callbacks do not end the wait")
    func refusals() async throws {
        let listener = try LoopbackRedirectListener(callbackPath: "/done")
        let waiting = Task {
            try await listener.waitForCallback(timeout: .seconds(30)) { callback in
                callback.query?.contains("state=right") == true
            }
        }
        #expect(await get(listener, "/favicon.ico").hasPrefix("HTTP/1.1 404"))
        #expect(
            await get(listener, "/done?state=right", host: "evil.example:\(listener.port)").hasPrefix("HTTP/1.1 421")
        )
        let post = await rawExchange(
            port: listener.port,
            "POST /done?state=right HTTP/1.1\r\nHost: localhost:\(listener.port)\r\n\r\n"
        )
        #expect(post.hasPrefix("HTTP/1.1 405"))
        let refused = await get(listener, "/done?code=1&state=wrong")
        #expect(refused.hasPrefix("HTTP/1.1 400"))
        #expect(refused.contains("does not belong"))
        #expect(await get(listener, "not-a-target").hasPrefix("HTTP/1.1 400"))
        let accepted = await get(listener, "/done?error=access_denied&state=right", host: "localhost:\(listener.port)")
        #expect(accepted.hasPrefix("HTTP/1.1 200"))
        #expect(accepted.contains("did not complete"))
        let callback = try await waiting.value
        #expect(callback.query == "error=access_denied&state=right")
    }

    @Test("No callback within the timeout is auth_required, on the injected clock")
    func timeout() async throws {
        let listener = try LoopbackRedirectListener()
        let clock = TestClock(mode: .manual)
        let waiting = Task { try await listener.waitForCallback(timeout: .seconds(120), timeSource: clock) }
        let error = await apiError(of: waiting, afterAdvancing: clock, by: .seconds(120), sleepers: 1)
        #expect(error?.code == .authRequired)
        #expect(error?.message.contains("No sign-in arrived") == true)
    }

    @Test("Cancelling the wait ends it; the port is released when the listener closes")
    func cancellation() async throws {
        let listener = try LoopbackRedirectListener()
        let port = listener.port
        let waiting = Task { try await listener.waitForCallback() }
        waiting.cancel()
        let result = await waiting.result
        #expect(throws: CancellationError.self) { try result.get() }
        listener.close()
        listener.close()
        let again = try LoopbackRedirectListener(port: port)
        #expect(again.port == port)
    }

    @Test("A port in use and a bad path are usage errors")
    func usage() async throws {
        let first = try LoopbackRedirectListener()
        #expect(await caughtAPIError { _ = try LoopbackRedirectListener(port: first.port) }?.code == .usage)
        #expect(await caughtAPIError { _ = try LoopbackRedirectListener(callbackPath: "callback") }?.code == .usage)
    }
}
