import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@Suite("withRefusingPort: a port that stays refused")
struct RefusingPortTests {
    // The IPv6 form is exercised by LoopbackTests, over the transport that can address `[::1]`.
    @Test("A request to the port is refused, each time")
    func refused() async throws {
        try await withRefusingPort { port in
            let baseURL = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let client = try Client(configuration: ClientConfiguration(baseURL: baseURL, retry: .none))
            for _ in 0..<3 {
                let error = await expectAPIError(.network) { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
                #expect(error?.message.hasPrefix("Could not connect to 127.0.0.1:\(port)") == true)
            }
        }
    }
}
