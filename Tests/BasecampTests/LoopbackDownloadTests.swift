import APISandbox
import Basecamp
import Foundation
import HTTPCore
import Testing

@Suite("Downloads against a real loopback server")
struct LoopbackDownloadTests {
    @Test("URLSession delivers the first hop's redirect; the storage hop carries no credentials")
    func twoHopsOverURLSession() async throws {
        try await Sandbox.withRunning { sandbox in
            let storage = sandbox.baseURL.appendingPathComponent("_test/echo/storage/file.bin")
            var components = URLComponents(
                url: sandbox.baseURL.appendingPathComponent("_test/redirect/302"),
                resolvingAgainstBaseURL: false
            )
            components?.queryItems = [URLQueryItem(name: "to", value: storage.absoluteString)]
            let downloadURL = try #require(components?.url).absoluteString
            let basecamp = try BasecampClient(
                accessToken: testToken,
                userAgent: "BasecampTests (tests@example.com)",
                config: BasecampConfig(baseURL: sandbox.baseURL, enableRetry: false),
                transport: URLSessionTransport()
            )
            let file = try await basecamp.download(downloadURL)
            let echo = try JSONValue(parsing: file.data)
            #expect(echo["path"] == "/_test/echo/storage/file.bin")
            #expect(echo["headers"]?["authorization"] == nil)
            #expect(echo["headers"]?["user-agent"] == ["BasecampTests (tests@example.com)"])
            #expect(file.redirected)
        }
    }
}
