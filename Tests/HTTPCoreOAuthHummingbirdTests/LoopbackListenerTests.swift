import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreOAuthHummingbird
import HTTPCoreTesting
import Testing

/// The loopback redirect listener on a real socket: the browser played by ``RawBrowser``.
@Suite("Loopback redirect listener")
struct LoopbackListenerTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    private func get(_ listener: LoopbackRedirectListener, _ target: String, host: String? = nil) async -> String {
        await RawBrowser.exchange(
            host: listener.rules.host,
            port: listener.port,
            "GET \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(listener.port)")\r\nUser-Agent: test\r\n\r\n"
        )
    }

    /// Runs `body` with a started listener and closes it afterwards, whatever happens.
    @available(macOS 14, iOS 17, tvOS 17, *)
    private func withListener(
        callbackPath: String = "/callback",
        host: LoopbackHost? = nil,
        _ body: (LoopbackRedirectListener) async throws -> Void
    ) async throws {
        let listener = try await LoopbackRedirectListener.start(callbackPath: callbackPath, host: host)
        do {
            try await body(listener)
            await listener.close()
        } catch {
            await listener.close()
            throw error
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The browser's callback ends the wait with the full URL and gets a no-store page")
    func callback() async throws {
        try await withListener { listener in
            #expect(listener.port > 0)
            #expect(listener.redirectURI.absoluteString == "http://127.0.0.1:\(listener.port)/callback")
            async let received = listener.waitForCallback(timeout: .seconds(30))
            let page = await get(listener, "/callback?code=abc&state=xyz")
            let callback = try await received
            #expect(callback.absoluteString == "http://127.0.0.1:\(listener.port)/callback?code=abc&state=xyz")
            #expect(page.hasPrefix("HTTP/1.1 200 OK\r\n"))
            let head = page.lowercased()
            #expect(head.contains("cache-control: no-store"))
            #expect(head.contains("referrer-policy: no-referrer"))
            #expect(head.contains("content-security-policy: default-src 'none'"))
            #expect(page.contains("Signed in."))
            #expect(!page.contains("abc"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Other paths, other methods, foreign Host headers and refused callbacks do not end the wait")
    func refusals() async throws {
        try await withListener(callbackPath: "/done") { listener in
            let waiting = Task {
                try await listener.waitForCallback(timeout: .seconds(30)) { callback in
                    callback.query?.contains("state=right") == true
                }
            }
            #expect(await get(listener, "/favicon.ico").hasPrefix("HTTP/1.1 404"))
            #expect(
                await get(listener, "/done?state=right", host: "evil.example:\(listener.port)").hasPrefix(
                    "HTTP/1.1 421"
                )
            )
            let post = await RawBrowser.exchange(
                port: listener.port,
                "POST /done?state=right HTTP/1.1\r\nHost: localhost:\(listener.port)\r\nContent-Length: 0\r\n\r\n"
            )
            #expect(post.hasPrefix("HTTP/1.1 405"))
            let refused = await get(listener, "/done?code=1&state=wrong")
            #expect(refused.hasPrefix("HTTP/1.1 400"))
            #expect(refused.contains("does not belong"))
            #expect(await get(listener, "not-a-target").hasPrefix("HTTP/1.1 400"))
            let accepted = await get(
                listener,
                "/done?error=access_denied&state=right",
                host: "localhost:\(listener.port)"
            )
            #expect(accepted.hasPrefix("HTTP/1.1 200"))
            #expect(accepted.contains("did not complete"))
            let callback = try await waiting.value
            #expect(callback.query == "error=access_denied&state=right")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("One redirect is taken: a second callback after the accepted one is refused")
    func oneRedirectTaken() async throws {
        try await withListener { listener in
            // It arrives before anyone waits, and is held for the wait.
            async let first = get(listener, "/callback?code=1&state=s")
            let callback = try await listener.waitForCallback(timeout: .seconds(30))
            #expect(callback.query == "code=1&state=s")
            #expect(await first.hasPrefix("HTTP/1.1 200"))
            let second = await get(listener, "/callback?code=2&state=s")
            #expect(second.hasPrefix("HTTP/1.1 400"))
            await #expect(throws: APIError.self) { _ = try await listener.waitForCallback(timeout: .seconds(1)) }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("No callback within the timeout is auth_required, on the injected clock")
    func timeout() async throws {
        try await withListener { listener in
            let clock = TestClock(mode: .manual)
            let waiting = Task { try await listener.waitForCallback(timeout: .seconds(120), timeSource: clock) }
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(120))
            let result = await waiting.result
            let error = #expect(throws: APIError.self) { try result.get() }
            #expect(error?.code == .authRequired)
            #expect(error?.message.contains("No sign-in arrived") == true)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Cancelling the wait ends it, and so does closing; the port is free once close returns")
    func cancellation() async throws {
        let listener = try await LoopbackRedirectListener.start()
        let port = listener.port
        let waiting = Task { try await listener.waitForCallback() }
        waiting.cancel()
        let result = await waiting.result
        #expect(throws: CancellationError.self) { try result.get() }

        let second = Task { try await listener.waitForCallback() }
        try await Task.sleep(for: .milliseconds(50))
        await listener.close()
        await listener.close()
        let closed = await second.result
        #expect(throws: CancellationError.self) { try closed.get() }

        let again = try await LoopbackRedirectListener.start(port: port)
        #expect(again.port == port)
        await again.close()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A port in use and a bad path are usage errors")
    func usage() async throws {
        try await withListener { first in
            let taken = await caughtAPIError { _ = try await LoopbackRedirectListener.start(port: first.port) }
            #expect(taken?.code == .usage)
            #expect(taken?.message == "Port \(first.port) on 127.0.0.1 is taken.")
            let badPath = await caughtAPIError {
                _ = try await LoopbackRedirectListener.start(callbackPath: "callback")
            }
            #expect(badPath?.code == .usage)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "On IPv6 the redirect URI is http://[::1]:PORT and [::1] is a loopback Host",
        .enabled(if: RawBrowser.hasIPv6Loopback)
    )
    func ipv6() async throws {
        try await withListener(host: .ipv6) { listener in
            #expect(listener.redirectURI.absoluteString == "http://[::1]:\(listener.port)/callback")
            async let received = listener.waitForCallback(timeout: .seconds(30))
            let page = await get(listener, "/callback?code=abc&state=xyz", host: "[::1]:\(listener.port)")
            #expect(page.hasPrefix("HTTP/1.1 200 OK\r\n"))
            let callback = try await received
            #expect(callback.absoluteString == "http://[::1]:\(listener.port)/callback?code=abc&state=xyz")
        }
    }
}
