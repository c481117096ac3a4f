import Foundation
import HTTPCore
import HTTPCoreObservability
import HTTPCoreTesting
import HTTPTypes
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import Testing
import Tracing

/// Everything the three adapters recorded for one client.
struct Observed {
    let logs: InMemoryLogHandler
    let metrics: TestMetrics
    let tracer: InMemoryTracer
    let clock: TestClock
    let client: Client

    /// One log entry with its metadata rendered as text, for exact comparison.
    struct Line: Equatable, CustomStringConvertible {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]

        var description: String { "\(level) \(message) \(metadata.sorted { $0.key < $1.key })" }
    }

    var lines: [Line] {
        logs.entries.map { entry in
            Line(
                level: entry.level,
                message: entry.message.description,
                metadata: entry.metadata.mapValues(\.description)
            )
        }
    }

    /// Finished spans, children before parents (the order they end in).
    var spans: [FinishedInMemorySpan] { tracer.finishedSpans }
}

/// A client on a scripted transport and test clock with logging, metrics and tracing set up by
/// the one-line helpers, each writing to an in-memory backend.
func observedClient(
    _ transport: ScriptedTransport,
    baseURL: String = "https://api.example.com/v1",
    configure: (inout ClientConfiguration) -> Void = { _ in }
) throws -> Observed {
    let logs = InMemoryLogHandler()
    var logger = Logger(label: "test", factory: { _ in logs })
    logger.logLevel = .trace
    let metrics = TestMetrics()
    let tracer = InMemoryTracer()
    let clock = TestClock()
    var configuration = ClientConfiguration(baseURL: try #require(URL(string: baseURL)), timeSource: clock)
    configure(&configuration)
    configuration.addLogging(logger: logger)
    configuration.addMetrics(factory: metrics)
    configuration.addTracing(tracer: tracer)
    let client = try Client(configuration: configuration, transport: transport)
    return Observed(logs: logs, metrics: metrics, tracer: tracer, clock: clock, client: client)
}

/// A span's attributes as a dictionary, for exact comparison.
func attributes(_ span: FinishedInMemorySpan) -> [String: SpanAttribute] {
    dictionary(span.attributes)
}

func dictionary(_ attributes: SpanAttributes) -> [String: SpanAttribute] {
    // SpanAttributes is not a Sequence; its own forEach is the only way to list it.
    var result: [String: SpanAttribute] = [:]
    let add: (String, SpanAttribute) -> Void = { key, value in result[key] = value }
    attributes.forEach(add)
    return result
}

/// The metric dimensions the hooks use, in their order.
func statusDimensions(
    _ operation: String,
    _ service: String,
    _ method: String,
    _ statusClass: String
)
    -> [(String, String)]
{
    [("operation", operation), ("service", service), ("method", method), ("status_class", statusClass)]
}

func errorDimensions(_ operation: String, _ service: String, _ method: String, _ code: String) -> [(String, String)] {
    [("operation", operation), ("service", service), ("method", method), ("error_code", code)]
}

/// Every metric the factory holds, as `label{dim=value,…}` lines, for comparing whole sets.
func series(_ metrics: TestMetrics) -> Set<String> {
    func render(_ label: String, _ dimensions: [(String, String)]) -> String {
        "\(label){\(dimensions.map { "\($0.0)=\($0.1)" }.joined(separator: ","))}"
    }
    var result = Set<String>()
    for counter in metrics.counters { result.insert(render(counter.label, counter.dimensions)) }
    for timer in metrics.timers { result.insert(render(timer.label, timer.dimensions)) }
    return result
}

/// A retry policy without jitter, so waits are exact.
let exactRetry = RetryPolicy(jitter: .none)

/// The operation the scenarios call.
let getThing = OperationMetadata(name: "GetThing", service: "things")

/// A client on `transport` for `https://api.example.com` with a test clock, set up by `configure`.
func scriptedClient(
    _ transport: ScriptedTransport,
    configure: (inout ClientConfiguration) -> Void = { _ in }
) throws -> Client {
    var configuration = ClientConfiguration(
        baseURL: try #require(URL(string: "https://api.example.com")),
        timeSource: TestClock()
    )
    configure(&configuration)
    return try Client(configuration: configuration, transport: transport)
}
