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
            guard probe.fromCache, try await cache.count == 1 else {
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
}
