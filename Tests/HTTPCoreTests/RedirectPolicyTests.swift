import Foundation
import HTTPCore
import HTTPTypes
import Testing

@Suite("Redirect policy")
struct RedirectPolicyTests {
    private func request(_ url: String, method: HTTPRequest.Method = .get) throws -> HTTPRequest {
        HTTPRequest(
            method: method,
            url: try #require(URL(string: url)),
            headerFields: [.authorization: "Bearer t", .cookie: "c=1", .proxyAuthorization: "p", .accept: "*/*"]
        )
    }

    private func redirect(_ status: Int, to location: String) -> HTTPResponse {
        HTTPResponse(status: .init(code: status), headerFields: [.location: location])
    }

    @Test("https → http is refused")
    func downgrade() throws {
        let decision = RedirectPolicy.default.decide(
            request: try request("https://a.example/x"),
            body: nil,
            url: try #require(URL(string: "https://a.example/x")),
            response: redirect(302, to: "http://a.example/y"),
            redirectsSoFar: 0
        )
        guard case .refuse(let error) = decision else {
            Issue.record("expected a refusal, got \(decision)")
            return
        }
        #expect(error.kind == .redirectRefused)
    }

    @Test("Same-origin redirects keep credentials; relative locations resolve")
    func sameOrigin() throws {
        let decision = RedirectPolicy.default.decide(
            request: try request("https://a.example/x"),
            body: nil,
            url: try #require(URL(string: "https://a.example/x")),
            response: redirect(301, to: "/y?z=1"),
            redirectsSoFar: 0
        )
        guard case .follow(let next, _, let url) = decision else {
            Issue.record("expected to follow, got \(decision)")
            return
        }
        #expect(url.absoluteString == "https://a.example/y?z=1")
        #expect(next.headerFields[.authorization] == "Bearer t")
    }

    @Test("Cross-origin redirects strip Authorization, Cookie and Proxy-Authorization")
    func crossOrigin() throws {
        let decision = RedirectPolicy.default.decide(
            request: try request("https://a.example/x"),
            body: nil,
            url: try #require(URL(string: "https://a.example/x")),
            response: redirect(307, to: "https://a.example:8443/x"),
            redirectsSoFar: 0
        )
        guard case .follow(let next, _, _) = decision else {
            Issue.record("expected to follow, got \(decision)")
            return
        }
        #expect(next.headerFields[.authorization] == nil)
        #expect(next.headerFields[.cookie] == nil)
        #expect(next.headerFields[.proxyAuthorization] == nil)
        #expect(next.headerFields[.accept] == "*/*")
    }

    @Test("303 turns a POST into a GET without a body; 307 keeps both")
    func methods() throws {
        let body = Data("x".utf8)
        let url = try #require(URL(string: "https://a.example/x"))
        let see = RedirectPolicy.default.decide(
            request: try request("https://a.example/x", method: .post),
            body: body,
            url: url,
            response: redirect(303, to: "/done"),
            redirectsSoFar: 0
        )
        if case .follow(let next, let nextBody, _) = see {
            #expect(next.method == .get)
            #expect(nextBody == nil)
        } else {
            Issue.record("expected to follow 303")
        }
        let temporary = RedirectPolicy.default.decide(
            request: try request("https://a.example/x", method: .post),
            body: body,
            url: url,
            response: redirect(307, to: "/again"),
            redirectsSoFar: 0
        )
        if case .follow(let next, let nextBody, _) = temporary {
            #expect(next.method == .post)
            #expect(nextBody == body)
        } else {
            Issue.record("expected to follow 307")
        }
    }

    @Test("Too many redirects is refused; .none delivers the 3xx")
    func limits() throws {
        let url = try #require(URL(string: "https://a.example/x"))
        let tooMany = RedirectPolicy(maxRedirects: 2).decide(
            request: try request("https://a.example/x"),
            body: nil,
            url: url,
            response: redirect(302, to: "/y"),
            redirectsSoFar: 2
        )
        guard case .refuse = tooMany else {
            Issue.record("expected a refusal")
            return
        }
        let none = RedirectPolicy.none.decide(
            request: try request("https://a.example/x"),
            body: nil,
            url: url,
            response: redirect(302, to: "/y"),
            redirectsSoFar: 0
        )
        guard case .deliver = none else {
            Issue.record("expected delivery")
            return
        }
    }
}
