import APISandbox
import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let accountID = String(BasecampSandboxSeed.accountID)

/// Starts a sandbox with the Basecamp module at `/basecamp`, runs `body`, and stops it whatever
/// happens.
@available(macOS 14, iOS 17, tvOS 17, *)
func withBasecampSandbox(
    module: BasecampSandboxModule = BasecampSandboxModule(),
    faults: FaultInjection = .none,
    _ body: (Sandbox) async throws -> Void
) async throws {
    try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [module], faults: faults), body)
}

/// ``withBasecampSandbox(module:faults:_:)`` with the SDK's account client for the seeded account
/// (see ``APISandbox/Sandbox/account(token:clock:retry:)``), and the sandbox for raw requests;
/// `rateLimited: false` switches Basecamp's rate limit off, for a test that makes a burst.
@available(macOS 14, iOS 17, tvOS 17, *)
func withSandboxAccount(
    retry: Bool = true,
    rateLimited: Bool = true,
    _ body: (AccountClient, Sandbox) async throws -> Void
) async throws {
    let module = BasecampSandboxModule()
    if !rateLimited { module.rateLimiter.setLimit(nil) }
    try await withBasecampSandbox(module: module) { sandbox in
        try await body(try sandbox.account(retry: retry), sandbox)
    }
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension Sandbox {
    /// `{sandbox}/basecamp`, where the SDK's base URL goes.
    var basecampURL: URL { baseURL.appending(path: "basecamp") }

    /// The SDK's account client for the seeded account, with the given token and clock.
    func account(
        token: String = "sandbox-token",
        clock: any TimeSource = SystemTimeSource(),
        retry: Bool = true
    ) throws -> AccountClient {
        let client = try BasecampClient(
            accessToken: token,
            userAgent: "BasecampSandboxTests (tests@example.com)",
            config: BasecampConfig(baseURL: basecampURL, enableRetry: retry),
            transport: URLSessionTransport(),
            timeSource: clock
        )
        return try client.forAccount(accountID)
    }

    /// A raw request to `{sandbox}/basecamp/{path}` (or the same path on `origin`, such as the
    /// storage host's), for what the SDK hides: headers, 304s, 401s, redirects.
    func raw(
        _ method: String,
        _ pathAndQuery: String,
        token: String? = "sandbox-token",
        headers: [String: String] = [:],
        body: String? = nil,
        on origin: URL? = nil
    ) async throws -> RawReply {
        let base = origin.map { $0.appending(path: "basecamp") } ?? basecampURL
        let url = try #require(URL(string: base.absoluteString + pathAndQuery))
        var request = URLRequest(url: url)
        request.httpMethod = method
        // Basecamp refuses a request whose User-Agent names no contact, as Foundation's own does not.
        request.setValue("BasecampSandboxTests (tests@example.com)", forHTTPHeaderField: "User-Agent")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        return RawReply(response: try #require(response as? HTTPURLResponse), body: data)
    }
}

/// A raw response.
struct RawReply {
    let response: HTTPURLResponse
    let body: Data

    var status: Int { response.statusCode }
    func header(_ name: String) -> String? { response.value(forHTTPHeaderField: name) }
    var json: JSONValue? { try? JSONValue(parsing: body) }
}
