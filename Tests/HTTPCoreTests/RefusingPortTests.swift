import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@Suite("withRefusingPort: a port that stays refused")
struct RefusingPortTests {
    // The IPv6 form is exercised by LoopbackTests, over the transport that can address `[::1]`.
    @Test("A request to the port fails at once as a network error, each time")
    func refused() async throws {
        try await withRefusingPort { port in
            let baseURL = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let configuration = ClientConfiguration(baseURL: baseURL, timeout: .seconds(120), retry: .none)
            let client = try Client(configuration: configuration)
            for _ in 0..<3 {
                let started = ContinuousClock.now
                await expectAPIError(.network) { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
                // Long before the timeout; a full parallel run on two cores has taken 11 s.
                #expect(ContinuousClock.now - started < .seconds(60))
            }
        }
    }
}
