import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Base URL validation")
struct BaseURLTests {
    @Test(
        "https and loopback http are accepted",
        arguments: [
            "https://api.example.com", "http://localhost:8080", "http://127.0.0.1:9000/api",
            "http://[::1]:8080", "http://sandbox.localhost",
        ]
    )
    func accepted(url: String) throws {
        _ = try makeClient(ScriptedTransport(), baseURL: url)
    }

    @Test(
        "Plain http elsewhere, other schemes, queries and host-less URLs are usage errors",
        arguments: [
            "http://api.example.com", "http://localhost.evil.com", "ftp://example.com",
            "https://api.example.com?x=1", "file:///tmp/x", "http://128.0.0.1",
        ]
    )
    func rejected(url: String) async throws {
        let error = await caughtAPIError { _ = try makeClient(ScriptedTransport(), baseURL: url) }
        #expect(error?.code == .usage)
        #expect(error?.exitCode == 64)
    }

    @Test("A trailing slash on the base and a leading slash on the path make one slash")
    func slashes() throws {
        for base in ["https://h.example/api", "https://h.example/api/", "https://h.example/api//"] {
            let client = try makeClient(ScriptedTransport(), baseURL: base)
            #expect(client.baseURL.absoluteString == "https://h.example/api")
            for path in ["users", "/users", "//users"] {
                #expect(
                    try client.url(for: Endpoint<JSONValue>(.get, path)).absoluteString == "https://h.example/api/users"
                )
            }
        }
    }

    @Test("Absolute URLs are used as they are, under the same https rule")
    func absolute() async throws {
        let client = try makeClient(ScriptedTransport())
        let followUp = Endpoint<Data>(.get, "https://storage.example.com/f/1?sig=abc")
        #expect(try client.url(for: followUp).absoluteString == "https://storage.example.com/f/1?sig=abc")
        let insecure = Endpoint<Data>(.get, "http://storage.example.com/f/1")
        let error = await caughtAPIError { _ = try client.url(for: insecure) }
        #expect(error?.code == .usage)
    }
}
