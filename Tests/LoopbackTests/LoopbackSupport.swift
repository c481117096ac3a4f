import APISandbox
import AsyncHTTPClient
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient
import HTTPCoreTesting
import HTTPTypes
import NIOCore
import Testing

/// A transport the contract suite runs against; every case must pass every contract test.
enum TransportUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case urlSession
    case asyncHTTPClient

    var testDescription: String { rawValue }

    /// A fresh transport with its own connections. An AsyncHTTPClient transport made here shuts
    /// its client down when released; ``withTransport(_:)`` shuts it down explicitly.
    func make() -> any HTTPTransport {
        switch self {
        case .urlSession: return URLSessionTransport()
        case .asyncHTTPClient: return AsyncHTTPClientTransport(configuration: Self.asyncHTTPClientConfiguration)
        }
    }

    /// Runs `body` with a fresh transport and shuts it down afterwards.
    func withTransport<T: Sendable>(_ body: (any HTTPTransport) async throws -> T) async throws -> T {
        switch self {
        case .urlSession:
            return try await body(URLSessionTransport())
        case .asyncHTTPClient:
            return try await withAsyncHTTPClientTransport(configuration: Self.asyncHTTPClientConfiguration) {
                try await body($0)
            }
        }
    }

    /// The recommended configuration, except that a request may wait for one of the pool's
    /// connections as long as ``makeClient(_:_:configure:)``'s timeout: AsyncHTTPClient bounds that
    /// wait by its 10 s connect timeout, which a full test run on two busy cores can exceed.
    private static var asyncHTTPClientConfiguration: HTTPClient.Configuration {
        var configuration = AsyncHTTPClientTransport.recommendedConfiguration
        configuration.timeout.connect = TimeAmount(SanitizerRun.hangTimeout)
        return configuration
    }
}

/// Allowances for a sanitizer run. `Scripts/sanitize.sh` sets `HTTPCORE_SANITIZER` to `thread` or
/// `address`; an instrumented process runs every instruction (the in-process sandboxes' too) several
/// times slower, with the rest of the suite in parallel on the same two cores, so a wait that is
/// generous for a plain build is not there: sanitizer runs have seen 5–12 s before a first byte.
enum SanitizerRun {
    /// The sanitizer the script says this process was built with, or nil for a plain build.
    static let name: String? = ProcessInfo.processInfo.environment["HTTPCORE_SANITIZER"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Whether this is a sanitizer run. Tests whose assertion is itself a wall-clock bound are
    /// disabled then, with a reason the script's summary lists.
    static var isActive: Bool { name != nil }

    /// How many times longer to wait for something a test does not measure: a timeout that only
    /// stops a hung test, or a server delay that must outlast the client's timeout.
    static var slowdown: Int { isActive ? 4 : 1 }

    /// A timeout whose only job is to stop a hung test. A minute: two cores overloaded five times
    /// over (the suite, its in-process servers and other work) have taken over 30 s to serve 100
    /// concurrent requests over a handful of connections.
    static var hangTimeout: Duration { .seconds(60 * slowdown) }
}

/// A client for `sandbox` over `transport`; retry is off unless the test turns it on.
///
/// The timeout is generous: the whole test run shares two cores with the in-process servers, and
/// a test about something else must not fail because the machine is busy.
func makeClient(
    _ sandbox: Sandbox,
    _ transport: any HTTPTransport,
    timeout: Duration = SanitizerRun.hangTimeout,
    configure: (inout ClientConfiguration) -> Void = { _ in }
) throws -> Client {
    try makeClient(sandbox.baseURL, transport, timeout: timeout, configure: configure)
}

/// A client for the server at `baseURL` over `transport`, as ``makeClient(_:_:timeout:configure:)``
/// makes one for a sandbox.
func makeClient(
    _ baseURL: URL?,
    _ transport: any HTTPTransport,
    timeout: Duration = SanitizerRun.hangTimeout,
    configure: (inout ClientConfiguration) -> Void = { _ in }
) throws -> Client {
    let baseURL = try #require(baseURL)
    var configuration = ClientConfiguration(baseURL: baseURL, timeout: timeout, retry: .none)
    configure(&configuration)
    return try Client(configuration: configuration, transport: transport)
}

/// What `/_test/echo` answers.
typealias Echo = EchoedRequest

extension Endpoint where Response == Echo {
    /// An echo endpoint decoded with the sandbox's camelCase keys.
    static func echo(
        _ method: HTTPRequest.Method,
        _ path: String = "_test/echo",
        query: QueryParameters = [:],
        headers: HTTPFields = [:],
        body: RequestBody? = nil
    ) -> Endpoint<Echo> {
        Endpoint(
            method,
            path,
            query: query,
            headers: headers,
            body: body,
            decoder: ResponseDecoder { data, _, _ in try JSONDecoder().decode(Echo.self, from: data) }
        )
    }
}

extension Data {
    /// What `/_test/bytes/{count}` sends: byte `i` is `i % 256`. Built from whole 256-byte blocks,
    /// as the sandbox builds it, because a byte-by-byte map of megabytes is slow in a debug build.
    static func sandboxPattern(count: Int) -> Data {
        let block = Data((0..<256).map { UInt8($0) })
        var data = Data(capacity: count + block.count)
        while data.count < count { data.append(block) }
        return data.prefix(count)
    }
}

/// Runs `body` with the built `api-sandbox` listening on a port of its own, in another process,
/// and stops it afterwards.
///
/// A body it streams keeps its pace however long this process's busy threads make a task wait
/// (seconds, in a full parallel run on two cores), as a server on another machine would; a test
/// that times a stream's gaps needs that.
func withSandboxProcess(_ body: (_ port: Int) async throws -> Void) async throws {
    let server = try RunningExecutable("api-sandbox", arguments: ["--port", "0"])
    do {
        let banner = try await server.waitFor("Test routes", in: server.stdout)
        let listening = banner.split(separator: "\n").first { $0.hasPrefix("api-sandbox listening on ") }
        let port = try #require(listening?.split(separator: ":").last.flatMap { Int($0) }, "\(banner)")
        try await body(port)
    } catch {
        _ = try? await server.interrupt()
        throw error
    }
    #expect(try await server.interrupt() == 0)
}
