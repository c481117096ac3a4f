import APISandbox
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as the tests need it: status, headers and the whole body.
struct Reply {
    let response: HTTPURLResponse
    let body: Data

    var status: Int { response.statusCode }

    func header(_ name: String) -> String? {
        response.value(forHTTPHeaderField: name)
    }

    func json<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try JSONDecoder().decode(type, from: body)
    }
}

/// A thin URLSession wrapper with caching off, so conditional requests and repeated GETs always
/// reach the sandbox.
struct Client {
    let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    func send(
        _ url: URL,
        method: String = "GET",
        headers: [String: String] = [:],
        body: Data? = nil
    ) async throws -> Reply {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Reply(response: http, body: data)
    }

    /// Sends on a brand-new session. Needed when the server breaks the connection: URLSession
    /// silently resends a request whose reused keep-alive connection dies before any response
    /// byte, which would hide the fault from the test.
    static func sendOnFreshConnection(
        _ url: URL,
        method: String = "GET",
        headers: [String: String] = [:],
        body: Data? = nil
    ) async throws -> Reply {
        let client = Client()
        defer { client.session.finishTasksAndInvalidate() }
        return try await client.send(url, method: method, headers: headers, body: body)
    }
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension Sandbox {
    /// `baseURL` plus a path that may carry a query string, which `appending(path:)` would escape.
    func url(_ pathAndQuery: String) throws -> URL {
        try #require(URL(string: baseURL.absoluteString + pathAndQuery))
    }

    /// Sends a request to ``url(_:)`` through a fresh ``Client``.
    func send(
        _ pathAndQuery: String,
        method: String = "GET",
        headers: [String: String] = [:],
        body: Data? = nil
    ) async throws -> Reply {
        try await Client().send(url(pathAndQuery), method: method, headers: headers, body: body)
    }
}

/// What `/_test/echo` answers.
typealias Echo = EchoedRequest

/// The byte pattern served by `/_test/bytes/{n}`: byte `i` is `i % 256`.
func expectedPattern(count: Int) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0) })
}
