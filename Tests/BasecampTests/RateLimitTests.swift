import Basecamp
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Basecamp rate limit")
struct BasecampRateLimitTests {
    @Test("The preset keys API requests by account and leaves other hosts alone")
    func keys() throws {
        let limiting = RateLimiting.basecamp(limiter: TokenBucketRateLimiter(.basecamp))
        func key(_ url: String) throws -> String? {
            limiting.key(HTTPRequest(method: .get, url: try #require(URL(string: url))))
        }
        #expect(try key("https://3.basecampapi.com/999/projects.json") == "999")
        #expect(try key("https://3.basecampapi.com/999") == "999")
        #expect(try key("https://storage.3.basecamp.com/999/blobs/x/download/a.png") == nil)
        #expect(try key("https://launchpad.37signals.com/authorization.json") == nil)
        #expect(try key("https://3.basecampapi.com/authorization.json") == nil)
        #expect(RequestRate.basecamp == RequestRate(50, per: .seconds(10)))
    }

    @Test("One budget per account: the second call on an account waits, another account does not")
    func perAccount() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport(clock: clock) { request in
            TransportResponse(response: HTTPResponse(status: .ok), body: Data("{}".utf8), url: request.url)
        }
        var config = BasecampConfig()
        config.rateLimiter = TokenBucketRateLimiter(RequestRate(1, per: .seconds(10)))
        let basecamp = try makeBasecamp(transport, config: config, clock: clock)
        _ = try? await basecamp.forAccount("111").projects.get(projectID: 1)
        _ = try? await basecamp.forAccount("222").projects.get(projectID: 1)
        _ = try? await basecamp.forAccount("111").projects.get(projectID: 2)
        #expect(transport.requests.map(\.time) == [.zero, .zero, .seconds(10)])
    }
}
