import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@Suite("ClientConfiguration.allowsInsecureHTTP")
struct InsecureHTTPTests {
    @Test("Off by default; on, plain http reaches any host, base URL and absolute URLs alike")
    func optIn() async throws {
        let url = try #require(URL(string: "http://timetable.example.edu/v1"))
        var configuration = ClientConfiguration(baseURL: url)
        let refused = await caughtAPIError {
            _ = try Client(configuration: configuration, transport: ScriptedTransport())
        }
        #expect(refused?.code == .usage)

        configuration.allowsInsecureHTTP = true
        let transport = ScriptedTransport([.json(["ok": true]), .json(["ok": true])])
        let client = try Client(configuration: configuration, transport: transport)
        _ = try await client.send(Endpoint<JSONValue>(.get, "schedules"))
        _ = try await client.send(Endpoint<JSONValue>(.get, "http://mirror.example.edu/schedules"))
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "http://timetable.example.edu/v1/schedules", "http://mirror.example.edu/schedules",
            ]
        )
    }

    @Test("It allows plain http only: other schemes and queries are still refused")
    func stillChecked() throws {
        for text in ["ftp://example.com", "http://example.com?x=1"] {
            let url = try #require(URL(string: text))
            #expect(throws: APIError.self) { try URLPolicy.validatedBaseURL(url, allowingInsecureHTTP: true) }
        }
    }
}
