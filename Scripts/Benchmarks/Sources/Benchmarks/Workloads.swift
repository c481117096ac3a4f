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
    /// Calls per side before per-request workloads switch to the next side within a
    /// round; `nil` runs each side's whole round as one block.
    var chunk: Int? = 25

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
        downloadBytes: 16 << 20
    )
}

/// The workloads, in the order of the table.
enum Workload: String, CaseIterable, Sendable {
    case get, cache, concurrent, pagination, hooks, decode, download, ceiling

    var summary: String {
        switch self {
        case .get: "1. sequential GET of a ~4 KiB JSON object, full client vs raw transport + JSONDecoder"
        case .cache: "2. cache on, every request a 304 revalidation, vs a raw conditional GET"
        case .concurrent: "3. 64 concurrent GETs through one client vs raw AsyncHTTPClient"
        case .pagination: "4. 10,000 items over 200 pages, prefetch vs none; peak RSS streaming vs collecting"
        case .hooks: "5. logging + metrics + tracing hooks (no-op backends) vs no hooks"
        case .decode: "6. decoding a 50-item Basecamp todo page and a 30×20 Markbook getmarkbook"
        case .download: "7. peak RSS of a 200 MiB download streamed to a file vs collected in memory"
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
        case .download: try downloadMemory()
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
        maxErrorBodySize: 1024 * 1024,
        redirectPolicy: .default
    )

    /// The conditional GET a revalidation of the document sends.
    var conditionalRequest: HTTPRequest {
        HTTPRequest(
            method: .get,
            url: documentURL,
            headerFields: [.accept: "application/json", .ifNoneMatch: BenchModule.etag]
        )
    }

    // MARK: 1. Sequential GET

    func sequentialGET() async throws {
        try await inMemoryPipeline(
            workload: "1. GET 4 KiB JSON → struct",
            variant: "HTTPCore Client, in-memory transport",
            revalidating: false
        )
        for kind in TransportKind.allCases {
            let client = try client(kind)
            // The transport alone (no Client pipeline), to tell pipeline cost from transport cost;
            // timed in the same turns as the client, against the same raw calls.
            let bare = transport(kind)
            let request = HTTPRequest(method: .get, url: documentURL, headerFields: [.accept: "application/json"])
            let decoder = self.decoder
            let sides = try await measure([
                { Sink.consume(try await client.send(Self.document).entries.count) },
                {
                    let result = try await bare.send(request, body: nil, options: Self.bareOptions)
                    Sink.consume(try decoder.decode(BenchDocument.self, from: result.body).entries.count)
                },
                { Sink.consume(try await self.rawDocument(kind).entries.count) },
            ])
            let result = sides.pair(0, against: 2)
            let transportOnly = sides.pair(1, against: 2)
            rows.append(
                Row(
                    workload: "1. GET 4 KiB JSON → struct",
                    variant: "\(kind.rawValue)Transport.send alone + JSONDecoder",
                    unit: .time,
                    measured: transportOnly,
                    baseline: "raw \(kind.rawValue) + JSONDecoder",
                    note: "no Client: the transport adapter's share"
                )
            )
            rows.append(
                Row(
                    workload: "1. GET 4 KiB JSON → struct",
                    variant: "HTTPCore Client, \(kind.rawValue)",
                    unit: .time,
                    measured: result,
                    baseline: "raw \(kind.rawValue) + JSONDecoder",
                    floor: .atMost(1.05),
                    note: "retry on, no hooks, cache off"
                )
            )
        }
    }

    /// The client's own cost with the network taken out: the full chain over a transport that
    /// answers from memory (with a 304 to every revalidation when `revalidating`), next to
    /// decoding the same bytes with `JSONDecoder`.
    func inMemoryPipeline(workload: String, variant: String, revalidating: Bool) async throws {
        let body = try BenchDocument.encoded()
        let client = try Self.inMemoryClient(baseURL: baseURL, body: body, revalidating: revalidating)
        // With the cache on, the first call stores the document and every later one revalidates.
        _ = try await client.send(Self.document)
        let decoder = self.decoder
        let result = try await measurePair(
            iterations: settings.iterations * 10,
            variant: { Sink.consume(try await client.send(Self.document).entries.count) },
            baseline: { Sink.consume(try decoder.decode(BenchDocument.self, from: body).entries.count) }
        )
        rows.append(
            Row(
                workload: workload,
                variant: variant,
                unit: .time,
                measured: result,
                baseline: "JSONDecoder alone",
                note: "the pipeline's own cost, no network"
            )
        )
    }

    /// A client over a transport that answers `body` from memory; with `revalidating`, the
    /// client has a cache and the transport answers its conditional requests with a 304.
    /// With `observed`, the client also has the hooks workload's logging, metrics and tracing.
    static func inMemoryClient(baseURL: URL, body: Data, revalidating: Bool, observed: Bool = false) throws -> Client {
        var configuration = ClientConfiguration(baseURL: baseURL)
        if revalidating { configuration.cache = ResponseCache() }
        if observed { observeWithNoOpBackends(&configuration) }
        let transport = CannedTransport(body, etag: revalidating ? BenchModule.etag : nil)
        return try Client(configuration: configuration, transport: transport)
    }

    /// Warms both sides up, then measures them in alternating rounds of `iterations` calls.
    func measurePair(
        iterations: Int? = nil,
        variant: @escaping () async throws -> Void,
        baseline: @escaping () async throws -> Void
    ) async throws -> PairedSamples {
        try await measure(iterations: iterations, [variant, baseline]).pair(0, against: 1)
    }

    /// Warms every side up, then measures them taking turns in rounds of `iterations` calls each.
    func measure(iterations: Int? = nil, _ sides: [() async throws -> Void]) async throws -> SideRounds {
        let count = iterations ?? settings.iterations
        let warmup = max(count / 5, 5)
        for side in sides { _ = try await timePerCall(warmup, side) }
        guard let chunk = settings.chunk, chunk < count else {
            return try await blocks(rounds: settings.rounds, iterations: count, sides)
        }
        return try await interleaved(rounds: settings.rounds, iterations: count, chunk: chunk, sides)
    }

    // MARK: 2. Cache revalidation

    func revalidation() async throws {
        try await inMemoryPipeline(
            workload: "2. 304 revalidation",
            variant: "HTTPCore Client + ResponseCache, in-memory 304",
            revalidating: true
        )
        for kind in TransportKind.allCases {
            let cache = ResponseCache()
            let client = try client(kind) { $0.cache = cache }
            _ = try await client.send(Self.document)
            let probe = try await client.response(Self.document)
            guard probe.fromCache, cache.count == 1 else {
                throw BenchError("the cache did not revalidate /bench/doc (fromCache: \(probe.fromCache))")
            }
            let (_, cachedBody) = try await rawGET(kind, documentURL)
            let bare = transport(kind)
            let conditional = conditionalRequest
            let decoder = self.decoder
            let sides = try await measure([
                { Sink.consume(try await client.send(Self.document).entries.count) },
                {
                    let result = try await bare.send(conditional, body: nil, options: Self.bareOptions)
                    guard result.response.status.code == 304 else {
                        throw BenchError("transport answered \(result.response.status.code)")
                    }
                    Sink.consume(try decoder.decode(BenchDocument.self, from: cachedBody).entries.count)
                },
                { try await self.rawRevalidation(kind, keptBody: cachedBody) },
            ])
            let result = sides.pair(0, against: 2)
            let transportOnly = sides.pair(1, against: 2)
            rows.append(
                Row(
                    workload: "2. 304 revalidation",
                    variant: "\(kind.rawValue)Transport.send alone + decode of kept body",
                    unit: .time,
                    measured: transportOnly,
                    baseline: "raw conditional GET + decode of kept body",
                    note: "no Client: the transport adapter's share"
                )
            )
            rows.append(
                Row(
                    workload: "2. 304 revalidation",
                    variant: "HTTPCore Client + ResponseCache, \(kind.rawValue)",
                    unit: .time,
                    measured: result,
                    baseline: "raw conditional GET + decode of kept body",
                    floor: .atMost(1.10)
                )
            )
        }
    }

    /// The AsyncHTTPClient revalidation workload taken apart, for a profiler: `client`,
    /// `transport` or `raw` runs that one side `count` times; `compare` runs raw, transport-only
    /// and client 304s and GETs call by call in rotation for `count` rounds of 100 and prints each
    /// one's time per call and its ratio to the raw 304. `compare-get` takes the GET apart the same
    /// way, in chunks of 25 per side for `count` rounds, with and without decoding, and prints each
    /// side's median call and its ratio to the raw GET: the client's share is `client` minus
    /// `transport`, the adapter's is `transport` minus `raw`. Its `async-API adapter GET` side does
    /// what a transport on AsyncHTTPClient's async API would (convert, execute, collect), for
    /// comparison with the delegate-based transport. `decode-times` times the decode
    /// inside each call too, to tell a slower decode from a slower fetch.
    func profileRevalidation(mode: String, count: Int) async throws {
        let client = try client(.asyncHTTPClient) { $0.cache = ResponseCache() }
        let plain = try self.client(.asyncHTTPClient)
        _ = try await client.send(Self.document)
        let (_, cachedBody) = try await rawGET(.asyncHTTPClient, documentURL)
        let bare = transport(.asyncHTTPClient)
        let conditional = conditionalRequest
        let decoder = self.decoder
        let rawDocumentGET: () async throws -> Void = {
            Sink.consume(try await self.rawDocument(.asyncHTTPClient).entries.count)
        }
        let clientGET: () async throws -> Void = { Sink.consume(try await plain.send(Self.document).entries.count) }
        let sides: [(name: String, call: () async throws -> Void)] = [
            ("raw", { try await self.rawRevalidation(.asyncHTTPClient, keptBody: cachedBody) }),
            (
                "transport",
                {
                    _ = try await bare.send(conditional, body: nil, options: Self.bareOptions)
                    Sink.consume(try decoder.decode(BenchDocument.self, from: cachedBody).entries.count)
                }
            ),
            ("client", { Sink.consume(try await client.send(Self.document).entries.count) }),
            ("raw GET", rawDocumentGET),
            ("client GET", clientGET),
        ]
        let getRequest = HTTPRequest(method: .get, url: documentURL, headerFields: [.accept: "application/json"])
        let documentBytes = Endpoint<Data>(.get, "bench/doc")
        let getSides: [(name: String, call: () async throws -> Void)] = [
            ("raw GET", rawDocumentGET),
            (
                "transport GET",
                {
                    let result = try await bare.send(getRequest, body: nil, options: Self.bareOptions)
                    Sink.consume(try decoder.decode(BenchDocument.self, from: result.body).entries.count)
                }
            ),
            (
                "client bytes+decode",
                {
                    let body = try await plain.send(documentBytes)
                    Sink.consume(try decoder.decode(BenchDocument.self, from: body).entries.count)
                }
            ),
            ("client GET", clientGET),
            ("raw bytes", { Sink.consume(try await self.rawGET(.asyncHTTPClient, self.documentURL).1.count) }),
            (
                "transport bytes",
                { Sink.consume(try await bare.send(getRequest, body: nil, options: Self.bareOptions).body.count) }
            ),
            ("client bytes", { Sink.consume(try await plain.send(documentBytes).count) }),
            (
                "async-API adapter GET",
                {
                    let body = try await self.asyncAPIAdapter(getRequest)
                    Sink.consume(try decoder.decode(BenchDocument.self, from: body).entries.count)
                }
            ),
        ]
        if mode == "decode-times" {
            let fetches: [(name: String, fetch: () async throws -> Data)] = [
                ("raw", { try await self.rawGET(.asyncHTTPClient, self.documentURL).1 }),
                ("transport", { try await bare.send(getRequest, body: nil, options: Self.bareOptions).body }),
                ("client bytes", { try await plain.send(documentBytes) }),
            ]
            let clock = ContinuousClock()
            var decodeTimes = Array(repeating: [Double](), count: fetches.count)
            let totals = try await rotatingChunks(
                rounds: count,
                fetches.indices.map { index in
                    {
                        let body = try await fetches[index].fetch()
                        let start = clock.now
                        Sink.consume(try decoder.decode(BenchDocument.self, from: body).entries.count)
                        decodeTimes[index].append(Stats.seconds(clock.now - start))
                    }
                }
            )
            for (index, side) in fetches.enumerated() {
                print(
                    side.name,
                    "total",
                    Format.value(Stats.median(totals[index]), .time),
                    "decode",
                    Format.value(Stats.median(decodeTimes[index]), .time)
                )
            }
            return
        }
        if mode == "compare-get" {
            for side in getSides { _ = try await timePerCall(50, side.call) }
            let times = try await rotatingChunks(rounds: count, getSides.map(\.call))
            let raw = Stats.median(times[0])
            for (index, side) in getSides.enumerated() {
                let median = Stats.median(times[index])
                print(side.name, Format.value(median, .time), String(format: "ratio %.3f", median / raw))
            }
            return
        }
        guard mode == "compare" else {
            guard let side = (sides + getSides).first(where: { $0.name == mode }) else {
                throw BenchError("unknown mode \(mode)")
            }
            _ = try await timePerCall(200, side.call)
            print(mode, Format.value(try await timePerCall(count, side.call), .time), "per call")
            return
        }
        for side in sides { _ = try await timePerCall(50, side.call) }
        // Call by call, each round starting one side further along; the figure is the mean.
        let times = try await rotatingChunks(rounds: count * 100, chunk: 1, sides.map(\.call))
        let raw = Stats.mean(times[0])
        for (index, side) in sides.enumerated() {
            let mean = Stats.mean(times[index])
            print(side.name, Format.value(mean, .time), String(format: "ratio %.3f", mean / raw))
        }
    }

    /// What an adapter on AsyncHTTPClient's async API does for one GET: convert the request,
    /// execute, collect the body, convert the head.
    func asyncAPIAdapter(_ request: HTTPRequest) async throws -> Data {
        guard let url = request.url else { throw BenchError("no URL") }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        for field in request.headerFields { outgoing.headers.add(name: field.name.rawName, value: field.value) }
        let response = try await httpClient.execute(outgoing, timeout: .seconds(30))
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        Sink.consume(fields.count)
        let body = try await response.body.collect(upTo: 50 * 1024 * 1024)
        return Data(body.readableBytesView)
    }

    // MARK: 3. Concurrency

    func concurrentGETs() async throws {
        let client = try client(.asyncHTTPClient)
        let workers = settings.concurrency
        let perWorker = settings.perWorker
        let decoder = self.decoder
        let httpClient = self.httpClient
        let url = documentURL.absoluteString
        let variant: @Sendable () async throws -> Void = {
            Sink.consume(try await client.send(Self.document).entries.count)
        }
        let baseline: @Sendable () async throws -> Void = {
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Accept", value: "application/json")
            let response = try await httpClient.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 * 1024 * 1024)
            guard response.status.code == 200 else { throw BenchError("raw GET answered \(response.status.code)") }
            Sink.consume(try decoder.decode(BenchDocument.self, from: Data(body.readableBytesView)).entries.count)
        }
        _ = try await throughput(workers: workers, perWorker: max(perWorker / 2, 1), variant)
        _ = try await throughput(workers: workers, perWorker: max(perWorker / 2, 1), baseline)
        let result = try await paired(
            rounds: settings.rounds,
            variant: { try await throughput(workers: workers, perWorker: perWorker, variant) },
            baseline: { try await throughput(workers: workers, perWorker: perWorker, baseline) }
        )
        ceilingSamples = result.baseline
        rows.append(
            Row(
                workload: "3. \(workers) concurrent GETs",
                variant: "HTTPCore Client, AsyncHTTPClient",
                unit: .throughput,
                measured: result,
                baseline: "raw AsyncHTTPClient + JSONDecoder",
                floor: .atLeast(0.90),
                note: "\(workers * perWorker) requests per round"
            )
        )
    }

    var ceilingSamples: [Double] = []

    // MARK: 4. Pagination

    func pagination() async throws {
        let client = try client(.asyncHTTPClient)
        let settings = settings
        let endpoint = Endpoint<[BenchItem]>(
            .get,
            "bench/items",
            query: [
                "total": settings.pageTotal, "per_page": settings.perPage, "delay_ms": settings.pageDelayMs,
                "pad": settings.itemPad,
            ]
        )
        let pages = (settings.pageTotal + settings.perPage - 1) / settings.perPage
        for consumerMs in [settings.consumerMsPerPage, 0] {
            let walk: (Bool) async throws -> Double = { prefetch in
                let clock = ContinuousClock()
                let start = clock.now
                var count = 0
                for try await item in client.paginate(endpoint, options: PaginationOptions(prefetch: prefetch)) {
                    count += 1
                    Sink.consume(item.id)
                    if consumerMs > 0, count.isMultiple(of: settings.perPage) {
                        // A consumer that does I/O per page (say, a batched database write).
                        try await Task.sleep(for: .milliseconds(consumerMs))
                    }
                }
                guard count == settings.pageTotal else {
                    throw BenchError("the walk yielded \(count) of \(settings.pageTotal) items")
                }
                return Stats.seconds(clock.now - start)
            }
            _ = try await walk(true)
            let result = try await paired(
                rounds: max(settings.rounds / 2, 3),
                variant: { try await walk(true) },
                baseline: { try await walk(false) }
            )
            rows.append(
                Row(
                    workload:
                        "4. \(settings.pageTotal) items / \(pages) pages, \(settings.pageDelayMs) ms server delay",
                    variant: "streaming, prefetch on",
                    unit: .time,
                    samples: result.variant,
                    baseline: "same walk, prefetch off",
                    baselineSamples: result.baseline,
                    ratios: result.ratios.map { 1 / $0 },
                    floor: consumerMs > 0 ? .atLeast(1.5) : nil,
                    note: consumerMs > 0
                        ? "consumer awaits \(consumerMs) ms per page; ratio = speed-up"
                        : "consumer does no work: only decoding overlaps the next request; ratio = speed-up",
                    roundSteal: result.steal
                )
            )
        }
        try memory()
    }

    /// Peak RSS of streaming vs collecting, each walk in a fresh child process.
    func memory() throws {
        var streaming: [Double] = []
        var collecting: [Double] = []
        var streamingGrowth: [Double] = []
        var collectingGrowth: [Double] = []
        for run in 0..<settings.memoryRuns {
            for mode in run.isMultiple(of: 2) ? ["stream", "collect"] : ["collect", "stream"] {
                let output = try runSelf([
                    "walk-child", "--base", baseURL.absoluteString, "--mode", mode,
                    "--total", String(settings.pageTotal), "--per-page", String(settings.perPage),
                    "--pad", String(settings.itemPad),
                ])
                let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Double(String($0)) }
                guard fields.count == 3 else { throw BenchError("walk-child printed \(output)") }
                if mode == "stream" {
                    streaming.append(fields[1])
                    streamingGrowth.append(fields[1] - fields[0])
                } else {
                    collecting.append(fields[1])
                    collectingGrowth.append(fields[1] - fields[0])
                }
            }
        }
        let ratios = zip(streaming, collecting).map { $0 / $1 }
        let growth = String(
            format: "growth during the walk: streaming %.1f MiB, collecting %.1f MiB; data %.1f MiB",
            Stats.median(streamingGrowth) / 1024,
            Stats.median(collectingGrowth) / 1024,
            Double(settings.pageTotal * (settings.itemPad + 40)) / 1_048_576
        )
        rows.append(
            Row(
                workload: "4. peak RSS (VmHWM), child process per walk",
                variant: "streaming (for try await)",
                unit: .kibibytes,
                samples: streaming,
                baseline: "collect()",
                baselineSamples: collecting,
                ratios: ratios,
                note: growth
            )
        )
    }

    // MARK: 5. Hooks

    func hooks() async throws {
        for kind in TransportKind.allCases {
            let plain = try client(kind)
            let observed = try client(kind, configure: Self.observeWithNoOpBackends)
            let result = try await measurePair(
                variant: { Sink.consume(try await observed.send(Self.document).entries.count) },
                baseline: { Sink.consume(try await plain.send(Self.document).entries.count) }
            )
            rows.append(
                Row(
                    workload: "5. observability hooks",
                    variant: "logging + metrics + tracing, \(kind.rawValue)",
                    unit: .time,
                    measured: result,
                    baseline: "same client, no hooks",
                    floor: .atMost(1.10),
                    note: "no-op backends"
                )
            )
        }
    }

    /// Logging, metrics and tracing hooks, each over a backend that drops everything.
    static func observeWithNoOpBackends(_ configuration: inout ClientConfiguration) {
        configuration.addLogging(logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        configuration.addMetrics(factory: NOOPMetricsHandler.instance)
        configuration.addTracing(tracer: NoOpTracer())
    }

    // MARK: 6. Decoding

    func decoding() throws {
        let todos = try DecodeFixtures.basecampTodoPage()
        let basecampDecoder = JSONCoding(keys: .useDefaultKeys).makeDecoder()
        try decodeRow(
            "6. decode Basecamp todo page (50 items, \(todos.count / 1024) KiB)",
            "[Basecamp.Todo] via the SDK's decoder",
            data: todos
        ) { Sink.consume(try basecampDecoder.decode([Todo].self, from: todos).count) }

        let sheet = try DecodeFixtures.markbookSheet()
        try decodeRow(
            "6. decode Markbook getmarkbook (30 × 20, \(sheet.count / 1024) KiB)",
            "MarkbookSheet via the SDK's decoder (results joined)",
            data: sheet
        ) { Sink.consume(try MarkbookSheet.decode(from: sheet).results.count) }
    }

    func decodeRow(_ workload: String, _ variant: String, data: Data, decode: () throws -> Void) throws {
        let count = settings.decodeIterations
        func time(_ body: () throws -> Void) throws -> Double {
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<count { try body() }
            return Stats.seconds(clock.now - start) / Double(count)
        }
        let parse = {
            Sink.consume((try JSONSerialization.jsonObject(with: data) as? [Any])?.count ?? 1)
        }
        _ = try time(decode)
        _ = try time(parse)
        var variants: [Double] = []
        var baselines: [Double] = []
        for round in 0..<settings.rounds {
            if round.isMultiple(of: 2) {
                variants.append(try time(decode))
                baselines.append(try time(parse))
            } else {
                baselines.append(try time(parse))
                variants.append(try time(decode))
            }
        }
        rows.append(
            Row(
                workload: workload,
                variant: variant,
                unit: .time,
                samples: variants,
                baseline: "JSONSerialization parse (reference)",
                baselineSamples: baselines,
                ratios: zip(variants, baselines).map { $0 / $1 }
            )
        )
    }

    // MARK: Server ceiling

    func ceiling() async throws {
        if let wrk = Self.which("wrk") {
            let seconds = settings.rounds <= 3 ? 2 : 5
            let process = Process()
            process.executableURL = wrk
            process.arguments = ["-t2", "-c\(settings.concurrency)", "-d\(seconds)s", documentURL.absoluteString]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            let rate = text.split(separator: "\n").first { $0.hasPrefix("Requests/sec:") }
                .flatMap { Double($0.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces)) }
            if let rate {
                rows.append(
                    Row(
                        workload: "server ceiling, GET /bench/doc",
                        variant: "wrk -t2 -c\(settings.concurrency) -d\(seconds)s",
                        unit: .throughput,
                        samples: [rate],
                        baseline: nil,
                        note: "server and load generator share the machine"
                    )
                )
                return
            }
        }
        if ceilingSamples.isEmpty {
            let httpClient = self.httpClient
            let url = documentURL.absoluteString
            for _ in 0..<settings.rounds {
                ceilingSamples.append(
                    try await throughput(workers: settings.concurrency, perWorker: settings.perWorker) {
                        var request = HTTPClientRequest(url: url)
                        request.headers.add(name: "Accept", value: "application/json")
                        let response = try await httpClient.execute(request, timeout: .seconds(30))
                        Sink.consume(try await response.body.collect(upTo: 1 << 20).readableBytes)
                    }
                )
            }
        }
        rows.append(
            Row(
                workload: "server ceiling, GET /bench/doc",
                variant: "raw AsyncHTTPClient, \(settings.concurrency) concurrent",
                unit: .throughput,
                samples: ceilingSamples,
                baseline: nil,
                note: "wrk not installed; client and server share the machine"
            )
        )
    }

    static func which(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(filePath: String(directory)).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

/// A transport that answers every request with the same 200 JSON body, without I/O.
struct CannedTransport: HTTPTransport {
    let body: Data
    /// When set, every response carries this ETag and a matching `If-None-Match` gets a 304.
    let etag: String?

    init(_ body: Data, etag: String? = nil) {
        self.body = body
        self.etag = etag
    }

    func send(_ request: HTTPRequest, body: Data?, options: TransportOptions) async throws -> TransportResponse {
        // The URL as the real transports get it (parsed once for a repeated target), so the
        // in-memory rows time the pipeline, not a URL parse no real transport makes per call.
        try await options.redirectPolicy.follow(request, body: body) { request, _, url in
            answer(request, url: url)
        }
    }

    private func answer(_ request: HTTPRequest, url: URL) -> TransportResponse {
        guard let etag else {
            return TransportResponse(
                response: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
                body: self.body,
                url: url
            )
        }
        // Not `headerFields[.ifNoneMatch]`: its generic join would be timed as the pipeline's.
        if request.headerFields.contains(where: { $0.name == .ifNoneMatch && $0.value == etag }) {
            return TransportResponse(
                response: HTTPResponse(status: .notModified, headerFields: [.eTag: etag]),
                body: Data(),
                url: url
            )
        }
        return TransportResponse(
            response: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json", .eTag: etag]),
            body: self.body,
            url: url
        )
    }
}
