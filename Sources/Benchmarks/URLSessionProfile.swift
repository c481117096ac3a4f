import Foundation
import HTTPCore
import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Runner {
    /// The URLSession GET taken apart, without decoding: raw `data(for:)`, a bare session
    /// delegate that only collects the body (the least any transport that watches the body as it
    /// streams in can do), first on URLSession's own delegate queue and then with its callbacks
    /// run in place (``InPlaceDelegateQueue``, as the transport does), `URLSessionTransport.send`,
    /// the whole client, and the client with logging, metrics and tracing hooks on no-op backends;
    /// then the same for a revalidation answered 304 (raw, the two bare delegates, the transport,
    /// and the client handing back its cached body). Chunks of 25 calls per side for `count`
    /// rounds; prints each side's median call, its ratio to raw and the process's CPU time per
    /// call. The bare delegates' ratios are FoundationNetworking's cost of delegate callbacks; the
    /// transport's ratio over the in-place one is the transport's own work.
    ///
    /// The last three sides each make the in-place 304 and then one call over a transport that
    /// answers from memory: the transport alone, the client, the client with a cache. Their
    /// differences are what the client's own work costs right after a round trip, the state it
    /// meets on the wire, which is several times what a loop of in-memory calls shows.
    ///
    /// With `side` (the start of a side's name, such as `client` or `raw 304`) only that side
    /// runs, `count` × 25 times after a warm-up, for `perf stat` or `perf record`.
    func profileURLSession(count: Int, only side: String? = nil) async throws {
        let configuration = Self.sessionConfiguration()
        let bareDelegate = CollectingDelegate()
        let bareSession = URLSession(configuration: configuration, delegate: bareDelegate, delegateQueue: nil)
        defer { bareSession.finishTasksAndInvalidate() }
        let inPlaceDelegate = CollectingDelegate()
        let inPlaceSession = URLSession(
            configuration: configuration,
            delegate: inPlaceDelegate,
            delegateQueue: URLSessionTransport.delegateQueue()
        )
        defer { inPlaceSession.finishTasksAndInvalidate() }
        let bare = transport(.urlSession)
        let plain = try client(.urlSession)
        let getRequest = HTTPRequest(method: .get, url: documentURL, headerFields: [.accept: "application/json"])
        let documentBytes = Endpoint<Data>(.get, "bench/doc")
        let caching = try client(.urlSession) { $0.cache = ResponseCache() }
        let observed = try client(.urlSession) { Runner.observeWithNoOpBackends(&$0) }
        _ = try await caching.send(documentBytes)
        let conditional = conditionalRequest
        let get = rawURLRequest(documentURL)
        let conditionalGet = rawURLRequest(documentURL, ifNoneMatch: BenchModule.etag)
        let memoryBody = try BenchDocument.encoded()
        let memoryTransport = CannedTransport(memoryBody, etag: BenchModule.etag)
        let memoryClient = try Self.inMemoryClient(baseURL: baseURL, body: memoryBody, revalidating: false)
        let memoryCaching = try Self.inMemoryClient(baseURL: baseURL, body: memoryBody, revalidating: true)
        _ = try await memoryCaching.send(documentBytes)
        // The in-place 304, then `call` over memory.
        func after304(_ call: @escaping () async throws -> Int) -> () async throws -> Void {
            {
                Sink.consume(try await inPlaceDelegate.get(conditionalGet, in: inPlaceSession).count)
                Sink.consume(try await call())
            }
        }
        let sides: [(name: String, call: () async throws -> Void)] = [
            ("raw data(for:)", { Sink.consume(try await self.rawGET(.urlSession, self.documentURL).1.count) }),
            ("bare session delegate", { Sink.consume(try await bareDelegate.get(get, in: bareSession).count) }),
            ("in-place delegate", { Sink.consume(try await inPlaceDelegate.get(get, in: inPlaceSession).count) }),
            (
                "URLSessionTransport.send",
                { Sink.consume(try await bare.send(getRequest, body: nil, options: Self.bareOptions).body.count) }
            ),
            ("client", { Sink.consume(try await plain.send(documentBytes).count) }),
            ("client + hooks", { Sink.consume(try await observed.send(documentBytes).count) }),
            (
                "raw 304",
                {
                    Sink.consume(
                        try await self.rawGET(.urlSession, self.documentURL, ifNoneMatch: BenchModule.etag).1.count
                    )
                }
            ),
            (
                "bare session delegate 304",
                { Sink.consume(try await bareDelegate.get(conditionalGet, in: bareSession).count) }
            ),
            (
                "in-place delegate 304",
                { Sink.consume(try await inPlaceDelegate.get(conditionalGet, in: inPlaceSession).count) }
            ),
            (
                "URLSessionTransport.send 304",
                { Sink.consume(try await bare.send(conditional, body: nil, options: Self.bareOptions).body.count) }
            ),
            ("client + cache 304", { Sink.consume(try await caching.send(documentBytes).count) }),
            (
                "after 304: in-memory transport",
                after304 {
                    try await memoryTransport.send(conditional, body: nil, options: Self.bareOptions).body.count
                }
            ),
            ("after 304: in-memory client", after304 { try await memoryClient.send(documentBytes).count }),
            ("after 304: in-memory client + cache", after304 { try await memoryCaching.send(documentBytes).count }),
        ]
        if let side {
            guard let chosen = sides.first(where: { $0.name.hasPrefix(side) }) else {
                throw BenchError("no side named \(side); the sides: \(sides.map(\.name).joined(separator: ", "))")
            }
            _ = try await timePerCall(50, chosen.call)
            let start = ProcessCPU.seconds()
            let wall = try await timePerCall(count * 25, chosen.call)
            let cpu = (ProcessCPU.seconds() - start) / Double(count * 25)
            print(chosen.name, Format.value(wall, .time), "CPU", Format.value(cpu, .time), "per call")
            return
        }
        for side in sides { _ = try await timePerCall(50, side.call) }
        var cpu = Array(repeating: 0.0, count: sides.count)
        let times = try await rotatingChunks(
            rounds: count,
            sides.indices.map { index in
                {
                    let start = ProcessCPU.seconds()
                    try await sides[index].call()
                    cpu[index] += ProcessCPU.seconds() - start
                }
            }
        )
        let raw = Stats.median(times[0])
        for (index, side) in sides.enumerated() {
            let median = Stats.median(times[index])
            print(
                side.name,
                Format.value(median, .time),
                String(format: "ratio %.3f", median / raw),
                "CPU",
                Format.value(cpu[index] / Double(times[index].count), .time),
                "per call"
            )
        }
    }
}

/// A session delegate that does nothing but collect each task's body and resume its caller.
private final class CollectingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Pending: Sendable {
        var continuation: CheckedContinuation<Data, any Error>
        var body = Data()
    }

    private let pending = Locked<[Int: Pending]>([:])

    func get(_ request: URLRequest, in session: URLSession) async throws -> Data {
        let task = session.dataTask(with: request)
        return try await withCheckedThrowingContinuation { continuation in
            pending.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation) }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        pending.withLock { $0[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let done = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            done.continuation.resume(throwing: error)
        } else {
            done.continuation.resume(returning: done.body)
        }
    }
}
