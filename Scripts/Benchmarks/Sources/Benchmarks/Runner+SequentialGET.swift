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

extension Runner {
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
                    floor: .atMost(kind.getFloor),
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
    /// With `observed`, the client also has the hooks workload's logging, metrics and tracing;
    /// `cache` replaces the memory cache a revalidating client has.
    static func inMemoryClient(
        baseURL: URL,
        body: Data,
        revalidating: Bool,
        observed: Bool = false,
        cache: ResponseCache? = nil
    ) throws -> Client {
        var configuration = ClientConfiguration(baseURL: baseURL)
        if revalidating { configuration.cache = cache ?? ResponseCache() }
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
}

extension TransportKind {
    /// The GET row's floor. URLSession's is wider: libcurl's own cost per request varies more
    /// between rounds on a shared machine than the client adds (docs/performance.md).
    var getFloor: Double {
        switch self {
        case .urlSession: 1.10
        case .asyncHTTPClient: 1.05
        }
    }
}
