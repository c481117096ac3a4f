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
}
