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
}
