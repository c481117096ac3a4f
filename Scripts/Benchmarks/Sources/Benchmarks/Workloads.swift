import AsyncHTTPClient
import Basecamp
import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient
import HTTPCoreObservability
import HTTPTypes
import Logging
import Markbook
import Metrics
import NIOCore
import Tracing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sizes for one run; `--quick` shrinks everything so CI only proves the benchmark works.
struct Settings: Sendable {
    var rounds = 11
    var iterations = 300
    var concurrency = 64
    var perWorker = 25
    var pageTotal = 10_000
    var perPage = 50
    var pageDelayMs = 2
    var consumerMsPerPage = 2
    var itemPad = 1000
    var memoryRuns = 3
    var decodeIterations = 100
    var downloadBytes = 200 << 20
    var sandboxListSize = 2_500
    /// Calls per side before per-request workloads switch to the next side within a
    /// round; `nil` runs each side's whole round as one block.
    var chunk: Int? = 25
    /// The PostgreSQL server workload 10 runs against; `nil` skips it.
    var postgresURL: String? = nil

    static let quick = Settings(
        rounds: 3,
        iterations: 20,
        concurrency: 64,
        perWorker: 2,
        pageTotal: 500,
        perPage: 50,
        pageDelayMs: 2,
        consumerMsPerPage: 2,
        itemPad: 1000,
        memoryRuns: 1,
        decodeIterations: 20,
        downloadBytes: 16 << 20,
        sandboxListSize: 200
    )
}

/// The workloads, in the order of the table.
enum Workload: String, CaseIterable, Sendable {
    case get, cache, concurrent, pagination, hooks, decode, download, sandbox, openapi, sharedcache, postgres, ceiling

    var summary: String {
        switch self {
        case .get: "1. sequential GET of a ~4 KiB JSON object, full client vs raw transport + JSONDecoder"
        case .cache: "2. cache on, every request a 304 revalidation, vs a raw conditional GET"
        case .concurrent: "3. 64 concurrent GETs through one client vs raw AsyncHTTPClient"
        case .pagination: "4. 10,000 items over 200 pages, prefetch vs none; peak RSS streaming vs collecting"
        case .hooks: "5. logging + metrics + tracing hooks (no-op backends) vs no hooks"
        case .decode: "6. decoding a 50-item Basecamp todo page and a 30×20 Markbook getmarkbook"
        case .download: "7. peak RSS of a 200 MiB download streamed to a file vs collected in memory, and of an upload"
        case .sandbox: "8. a page of a 2,500-item to-do list from the Basecamp sandbox vs a page of a 120-item one"
        case .openapi:
            "9. a swift-openapi-generator client's GET on HTTPCoreOpenAPI vs on swift-openapi-urlsession / -async-http-client"
        case .sharedcache:
            "10. a shared-cache hit on PostgreSQL vs a memory-cache hit, both answered 304 in memory (with --postgres-url or HTTPCORE_POSTGRES_URL)"
        case .postgres:
            "11. a PostgreSQL rate-limit permit and a credential load / adopt (with --postgres-url or HTTPCORE_POSTGRES_URL)"
        case .ceiling: "server ceiling on /bench/doc (wrk when installed, else raw AsyncHTTPClient)"
        }
    }
}

/// The transports the per-request workloads compare.
enum TransportKind: String, CaseIterable, Sendable {
    case urlSession = "URLSession"
    case asyncHTTPClient = "AsyncHTTPClient"
}

/// Runs the chosen workloads against one sandbox and collects table rows.
final class Runner {
    let settings: Settings
    let baseURL: URL
    let httpClient: HTTPClient
    let urlSession: URLSession
    let decoder = JSONCoding().makeDecoder()
    let documentURL: URL
    var rows: [Row] = []
    var ceilingSamples: [Double] = []

    init(settings: Settings, baseURL: URL) {
        self.settings = settings
        self.baseURL = baseURL
        self.documentURL = baseURL.appending(path: "bench/doc")
        var configuration = AsyncHTTPClientTransport.recommendedConfiguration
        // Room for every concurrent worker, for the raw baseline and the client alike.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = settings.concurrency
        httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        urlSession = URLSession(configuration: Self.sessionConfiguration())
    }

    /// The same settings `URLSessionTransport` applies, so the raw baseline does the same work.
    static func sessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    func shutdown() async throws {
        urlSession.finishTasksAndInvalidate()
        try await httpClient.shutdown()
    }

    /// Per workload run, the share of the machine's CPU time the hypervisor stole meanwhile.
    var workloadSteal: [(workload: Workload, share: Double?)] = []

    func run(_ workload: Workload) async throws {
        let host = HostCPUTimes.read()
        defer { workloadSteal.append((workload, host?.stealShareUntilNow())) }
        switch workload {
        case .get: try await sequentialGET()
        case .cache: try await revalidation()
        case .concurrent: try await concurrentGETs()
        case .pagination: try await pagination()
        case .hooks: try await hooks()
        case .decode: try decoding()
        case .download:
            for direction in TransferDirection.allCases { try transferMemory(direction) }
        case .sandbox: try await sandboxPage()
        case .openapi: try await openAPIGET()
        case .sharedcache: try await sharedCacheHit()
        case .postgres: try await postgres()
        case .ceiling: try await ceiling()
        }
    }

    // MARK: Clients and raw baselines

    func transport(_ kind: TransportKind) -> any HTTPTransport {
        switch kind {
        case .urlSession: URLSessionTransport(configuration: Self.sessionConfiguration())
        case .asyncHTTPClient: AsyncHTTPClientTransport(client: httpClient)
        }
    }

    func client(_ kind: TransportKind, configure: (inout ClientConfiguration) -> Void = { _ in }) throws -> Client {
        var configuration = ClientConfiguration(baseURL: baseURL)
        configure(&configuration)
        return try Client(configuration: configuration, transport: transport(kind))
    }

    /// One raw GET of `url`: status and body, nothing else.
    func rawGET(_ kind: TransportKind, _ url: URL, ifNoneMatch: String? = nil) async throws -> (Int, Data) {
        switch kind {
        case .urlSession:
            let (data, response) = try await urlSession.data(for: rawURLRequest(url, ifNoneMatch: ifNoneMatch))
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        case .asyncHTTPClient:
            var request = HTTPClientRequest(url: url.absoluteString)
            request.headers.add(name: "Accept", value: "application/json")
            if let ifNoneMatch { request.headers.add(name: "If-None-Match", value: ifNoneMatch) }
            let response = try await httpClient.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 * 1024 * 1024)
            return (Int(response.status.code), Data(body.readableBytesView))
        }
    }

    /// The URLRequest a raw URLSession GET of `url` sends.
    func rawURLRequest(_ url: URL, ifNoneMatch: String? = nil) -> URLRequest {
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        return request
    }

    func rawDocument(_ kind: TransportKind) async throws -> BenchDocument {
        let (status, data) = try await rawGET(kind, documentURL)
        guard status == 200 else { throw BenchError("raw GET answered \(status)") }
        return try decoder.decode(BenchDocument.self, from: data)
    }

    /// One raw conditional GET of the document that must answer 304, then a decode of the body
    /// kept from an earlier 200: what revalidating by hand costs.
    func rawRevalidation(_ kind: TransportKind, keptBody: Data) async throws {
        let (status, _) = try await rawGET(kind, documentURL, ifNoneMatch: BenchModule.etag)
        guard status == 304 else { throw BenchError("raw conditional GET answered \(status)") }
        Sink.consume(try decoder.decode(BenchDocument.self, from: keptBody).entries.count)
    }

    static let document = Endpoint<BenchDocument>(.get, "bench/doc")

    /// What a transport is given when it is timed alone, without a client to build its options.
    static let bareOptions = TransportOptions(
        timeout: .seconds(30),
        maxBodySize: 50 * 1024 * 1024,
        maxErrorBodySize: 1024 * 1024
    )

    /// The conditional GET a revalidation of the document sends.
    var conditionalRequest: HTTPRequest {
        HTTPRequest(
            method: .get,
            url: documentURL,
            headerFields: [.accept: "application/json", .ifNoneMatch: BenchModule.etag]
        )
    }
}
