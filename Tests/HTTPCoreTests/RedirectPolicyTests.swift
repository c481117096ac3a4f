import Foundation
import HTTPCore
import HTTPTypes
import Testing

@Suite("Redirect policy")
struct RedirectPolicyTests {
    private static let origin = "https://a.example/x"

    /// What `policy` decides for a request to ``origin`` (with credentials and `Accept`) that got
    /// `status` with `Location: location`.
    private func decide(
        _ status: Int,
        to location: String,
        method: HTTPRequest.Method = .get,
        body: Data? = nil,
        policy: RedirectPolicy = .default,
        redirectsSoFar: Int = 0
    ) throws -> RedirectPolicy.Decision {
        let url = try #require(URL(string: Self.origin))
        let request = HTTPRequest(
            method: method,
            url: url,
            headerFields: [.authorization: "Bearer t", .cookie: "c=1", .proxyAuthorization: "p", .accept: "*/*"]
        )
        return policy.decide(
            request: request,
            body: body,
            url: url,
            response: HTTPResponse(status: .init(code: status), headerFields: [.location: location]),
            redirectsSoFar: redirectsSoFar
        )
    }

    @Test("https → http is refused")
    func downgrade() throws {
        let decision = try decide(302, to: "http://a.example/y")
        guard case .refuse(let error) = decision else {
            Issue.record("expected a refusal, got \(decision)")
            return
        }
        #expect(error.kind == .redirectRefused)
    }

    @Test("Same-origin redirects keep credentials; relative locations resolve")
    func sameOrigin() throws {
        let decision = try decide(301, to: "/y?z=1")
        guard case .follow(let next, _, let url) = decision else {
            Issue.record("expected to follow, got \(decision)")
            return
        }
        #expect(url.absoluteString == "https://a.example/y?z=1")
        #expect(next.headerFields[.authorization] == "Bearer t")
    }

    @Test("Cross-origin redirects strip Authorization, Cookie and Proxy-Authorization")
    func crossOrigin() throws {
        let decision = try decide(307, to: "https://a.example:8443/x")
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
        if case .follow(let next, let nextBody, _) = try decide(303, to: "/done", method: .post, body: body) {
            #expect(next.method == .get)
            #expect(nextBody == nil)
        } else {
            Issue.record("expected to follow 303")
        }
        if case .follow(let next, let nextBody, _) = try decide(307, to: "/again", method: .post, body: body) {
            #expect(next.method == .post)
            #expect(nextBody == body)
        } else {
            Issue.record("expected to follow 307")
        }
    }

    @Test("Too many redirects is refused; .none delivers the 3xx")
    func limits() throws {
        guard case .refuse = try decide(302, to: "/y", policy: RedirectPolicy(maxRedirects: 2), redirectsSoFar: 2)
        else {
            Issue.record("expected a refusal")
            return
        }
        guard case .deliver = try decide(302, to: "/y", policy: .none) else {
            Issue.record("expected delivery")
            return
        }
    }
}
