import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import Testing

/// What a loopback redirect listener answers, decided without any server.
@Suite("Loopback redirect rules")
struct LoopbackRedirectRulesTests {
    private static let rules = try? LoopbackRedirectRules(
        host: .ipv4,
        port: 8765,
        callbackPath: "/callback",
        pages: LoopbackPages()
    )

    @Test(
        "Requests that are not this listener's callback get their status and never reach the waiter",
        arguments: [
            ("GET", "/favicon.ico", "127.0.0.1:8765", 404),
            ("GET", "/callback?state=s", "evil.example:8765", 421),
            ("GET", "/callback?state=s", "127.0.0.1:9999", 421),
            ("GET", "/callback?state=s", nil, 421),
            ("POST", "/callback?state=s", "localhost:8765", 405),
            ("GET", "not-a-target", "127.0.0.1:8765", 400),
        ] as [(String, String, String?, Int)]
    )
    func refused(method: String, target: String, host: String?, status: Int) throws {
        let rules = try #require(Self.rules)
        guard case .answer(let answer) = rules.verdict(method: method, target: target, host: host) else {
            Issue.record("\(method) \(target) reached the waiter")
            return
        }
        #expect(answer.status == status)
    }

    @Test("Every loopback name reaches the waiter, with the callback URL built on the redirect URI")
    func callbacks() throws {
        let rules = try #require(Self.rules)
        for host in ["127.0.0.1:8765", "LOCALHOST:8765", "[::1]:8765"] {
            let verdict = rules.verdict(method: "GET", target: "/callback?code=c&state=s", host: host)
            #expect(verdict == .callback(try #require(URL(string: "http://127.0.0.1:8765/callback?code=c&state=s"))))
        }
        let ipv6 = try LoopbackRedirectRules(host: .ipv6, port: 8765, callbackPath: "/cb", pages: LoopbackPages())
        #expect(ipv6.redirectURI.absoluteString == "http://[::1]:8765/cb")
    }

    @Test("The pages: signed in, did not complete, refused; HTML-escaped, never the code")
    func pages() throws {
        let rules = try #require(Self.rules)
        let callback = try #require(URL(string: "http://127.0.0.1:8765/callback?code=secret-code&state=s"))
        let signedIn = rules.answer(toCallback: callback, accepted: true)
        #expect(signedIn.status == 200)
        #expect(signedIn.reasonPhrase == "OK")
        #expect(signedIn.html.contains("Signed in."))
        #expect(!signedIn.html.contains("secret-code"))
        let error = try #require(URL(string: "http://127.0.0.1:8765/callback?error=access_denied&state=s"))
        #expect(rules.answer(toCallback: error, accepted: true).text == LoopbackPages().failed)
        #expect(rules.answer(toCallback: callback, accepted: false).status == 400)
        #expect(LoopbackAnswer(status: 200, text: "<b>&</b>").html.contains("&lt;b&gt;&amp;&lt;/b&gt;"))
        let names = LoopbackAnswer.headerFields.map(\.name)
        #expect(names.contains("Cache-Control") && names.contains("Referrer-Policy"))
    }

    @Test("A path without a leading slash, with a query, or a port out of range is a usage error")
    func checks() async {
        for (port, path) in [(0, "callback"), (0, "/callback?x=1"), (0, "/cb#top"), (70_000, "/callback")] {
            let error = await caughtAPIError { try LoopbackRedirectRules.check(port: port, callbackPath: path) }
            #expect(error?.code == .usage, "\(port) \(path)")
        }
    }
}
