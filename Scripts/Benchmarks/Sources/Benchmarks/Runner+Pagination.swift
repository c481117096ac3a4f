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
}
