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

@Suite("Observability adapters")
struct AdapterTests {
    @Test("The trace context goes out through the installed instrument: a W3C traceparent")
    func w3cTraceparent() async throws {
        let tracer = W3CTracer()
        let transport = ScriptedTransport([.json([:])])
        let client = try scriptedClient(transport) { $0.addTracing(tracer: tracer) }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))

        let attempt = try #require(tracer.inner.finishedSpans.first)
        let traceparent = try #require(transport.requests.first?.header("traceparent"))
        #expect(traceparent == "00-\(attempt.traceID)-\(attempt.spanID)-01")
        #expect(traceparent.wholeMatch(of: /00-[0-9a-f]{32}-[0-9a-f]{16}-01/) != nil)
    }

    @Test("Without a tracer argument the task-local tracer (withTracer) is used")
    func taskLocalTracer() async throws {
        let tracer = InMemoryTracer()
        let transport = ScriptedTransport([.json([:])])
        let client = try scriptedClient(transport) { $0.addTracing() }
        try await withTracer(tracer) {
            _ = try await client.send(Endpoint<JSONValue>(.get, "x", operation: OperationMetadata(name: "Op")))
        }
        #expect(tracer.finishedSpans.map(\.operationName) == ["GET", "Op"])
        #expect(transport.requests.first?.header(InMemoryTracer.spanIDKey) == tracer.finishedSpans.first?.spanID)
    }

    @Test("Without any tracer installed nothing is recorded and no trace header is added")
    func noTracer() async throws {
        let transport = ScriptedTransport([.json([:])])
        let client = try scriptedClient(transport) { $0.addTracing() }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(transport.requests.first?.header(InMemoryTracer.spanIDKey) == nil)
    }

    @Test("A standalone middleware parents attempt spans under the caller's span")
    func standaloneMiddleware() async throws {
        let tracer = InMemoryTracer()
        let transport = ScriptedTransport([.json([:])])
        let client = try scriptedClient(transport) { $0.middlewares = [TraceContextMiddleware(tracer: tracer)] }
        try await tracer.withSpan("caller") { _ in
            _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        }
        let spans = tracer.finishedSpans
        try #require(spans.count == 2)
        #expect(spans[0].operationName == "GET")
        #expect(spans[0].parentSpanID == spans[1].spanID)
        #expect(attributes(spans[0])["http.response.status_code"] == 200)
        #expect(transport.requests.first?.header(InMemoryTracer.spanIDKey) == spans[0].spanID)
    }

    @Test("Installed by hand, the call stage, the attempt stage and the span-event hooks nest as addTracing does")
    func installedByHand() async throws {
        let tracer = InMemoryTracer()
        let transport = ScriptedTransport([.status(503), .json([:])])
        let configuration = ClientConfiguration(
            baseURL: try #require(URL(string: "https://api.example.com")),
            middlewares: [TraceContextMiddleware(tracer: tracer)],
            callMiddlewares: [TracingMiddleware(tracer: tracer)],
            hooks: SpanEventHooks(),
            timeSource: TestClock(),
            retry: exactRetry
        )
        let client = try Client(configuration: configuration, transport: transport)
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        let spans = tracer.finishedSpans
        #expect(spans.map(\.operationName) == ["GET", "GET", "GET"])
        #expect(spans.map(\.kind) == [.client, .client, .internal])
        #expect(attributes(spans[1])["http.request.resend_count"] == 1)
        #expect(spans.prefix(2).allSatisfy { $0.parentSpanID == spans[2].spanID })
        #expect(attributes(spans[2])["httpcore.attempts"] == 2)
        #expect(spans[2].events.map(\.name) == [SpanEventHooks.retryEventName])
        #expect(transport.requests.map { $0.header(InMemoryTracer.spanIDKey) } == spans.prefix(2).map(\.spanID))
    }

    @Test("A cancelled call ends its spans and says it was cancelled: none is left open")
    func cancelledCall() async throws {
        let tracer = InMemoryTracer()
        let transport = ScriptedTransport { _ in
            try await Task.sleep(for: .seconds(3600))
            throw CancellationError()
        }
        let client = try scriptedClient(transport) { $0.addTracing(tracer: tracer) }
        let call = Task {
            try await client.send(Endpoint<JSONValue>(.get, "x", operation: OperationMetadata(name: "Op")))
        }
        await waitUntil { !transport.requests.isEmpty }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(tracer.activeSpans.isEmpty)
        let spans = tracer.finishedSpans
        #expect(spans.map(\.operationName) == ["GET", "Op"])
        #expect(attributes(spans[1])["httpcore.cancelled"] == true)
        #expect(spans[1].status == nil)
    }

    @Test("Labels stay bounded: unknown operation, _OTHER method, overflowing operation names")
    func boundedLabels() async throws {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let transport = ScriptedTransport([.json([:]), .json([:]), .json([:])])
        var configuration = ClientConfiguration(
            baseURL: try #require(URL(string: "https://api.example.com")),
            hooks: MetricsHooks(factory: metrics, maxOperationNames: 1),
            timeSource: TestClock()
        )
        configuration.addTracing(tracer: tracer)
        let client = try Client(configuration: configuration, transport: transport)
        let purge = try #require(HTTPRequest.Method("PURGE"))
        _ = try await client.send(Endpoint<JSONValue>(purge, "x"))
        _ = try await client.send(Endpoint<JSONValue>(.get, "a", operation: OperationMetadata(name: "First")))
        _ = try await client.send(Endpoint<JSONValue>(.get, "b", operation: OperationMetadata(name: "Second")))

        let requests = Set(metrics.counters(label: "httpcore.requests").map { $0.dimensions.map(\.1) })
        #expect(
            requests == [
                ["unknown", "unknown", "_OTHER", "2xx"],
                ["other", "unknown", "GET", "2xx"],
            ]
        )
        let purgeSpan = try #require(tracer.finishedSpans.first)
        #expect(purgeSpan.operationName == "_OTHER")
        #expect(attributes(purgeSpan)["http.request.method"] == "_OTHER")
        #expect(attributes(purgeSpan)["http.request.method_original"] == "PURGE")
    }

    @Test("Without a logger argument, lines go to the calling task's Logger.current with its metadata")
    func taskLocalLogger() async throws {
        var handler = InMemoryLogHandler()
        handler.logLevel = .debug
        let transport = ScriptedTransport([.json([:])])
        let client = try scriptedClient(transport) { $0.addLogging() }
        try await withLogger(logLevel: .debug, handler: handler, metadata: ["app.request": "abc"]) { _ in
            _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        }
        #expect(handler.entries.map(\.message.description) == ["HTTP attempt finished"])
        #expect(handler.entries.first?.metadata["app.request"] == "abc")
    }

    @Test("Levels are configurable; lines below the logger's level are not written")
    func levels() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test", factory: { _ in handler })
        logger.logLevel = .info
        let transport = ScriptedTransport([.status(503), .json([:])])
        var configuration = ClientConfiguration(
            baseURL: try #require(URL(string: "https://api.example.com")),
            timeSource: TestClock(),
            retry: exactRetry
        )
        configuration.addLogging(logger: logger, levels: LoggingHooks.Levels(retry: .info))
        let client = try Client(configuration: configuration, transport: transport)
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(handler.entries.map(\.level) == [.info])
        #expect(handler.entries.map(\.message.description) == ["Retrying HTTP request"])
    }

    @Test("The one-line set-ups compose with the user's own hooks and middlewares")
    func composition() async throws {
        let recorder = CountingHooks()
        let transport = ScriptedTransport([.json([:])])
        var configuration = ClientConfiguration(
            baseURL: try #require(URL(string: "https://api.example.com")),
            middlewares: [ClosureMiddleware { request, body, context, next in try await next(request, body, context) }],
            hooks: recorder,
            timeSource: TestClock()
        )
        configuration.addLogging(logger: Logger(label: "test", factory: { _ in InMemoryLogHandler() }))
        configuration.addMetrics(factory: TestMetrics())
        configuration.addTracing(tracer: InMemoryTracer())
        let chain = try #require(configuration.hooks as? ChainHooks)
        #expect(chain.hooks.count == 4)
        #expect(chain.hooks[0] is CountingHooks)
        #expect(chain.hooks[1] is LoggingHooks)
        #expect(chain.hooks[2] is MetricsHooks)
        #expect(chain.hooks[3] is SpanEventHooks)
        #expect(configuration.middlewares.count == 2)
        #expect(configuration.middlewares.last is TraceContextMiddleware)
        #expect(configuration.callMiddlewares.count == 1)
        #expect(configuration.callMiddlewares.first is TracingMiddleware)

        let client = try Client(configuration: configuration, transport: transport)
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(recorder.count == 4)
    }

    @Test("Tracing stages shared by two clients keep their calls apart")
    func sharedAcrossClients() async throws {
        let tracer = InMemoryTracer()
        let call = TracingMiddleware(tracer: tracer)
        let attempt = TraceContextMiddleware(tracer: tracer)
        func client() throws -> Client {
            let configuration = ClientConfiguration(
                baseURL: try #require(URL(string: "https://api.example.com")),
                middlewares: [attempt],
                callMiddlewares: [call],
                timeSource: TestClock()
            )
            return try Client(configuration: configuration, transport: ScriptedTransport([.json([:])]))
        }
        let (first, second) = (try client(), try client())
        async let one = first.send(Endpoint<JSONValue>(.get, "x", operation: OperationMetadata(name: "One")))
        async let two = second.send(Endpoint<JSONValue>(.get, "x", operation: OperationMetadata(name: "Two")))
        _ = try await (one, two)
        let spans = tracer.finishedSpans
        let calls = spans.filter { $0.kind == .internal }
        #expect(Set(calls.map(\.operationName)) == ["One", "Two"])
        for call in calls {
            #expect(spans.filter { $0.parentSpanID == call.spanID }.count == 1)
        }
        #expect(tracer.activeSpans.isEmpty)
    }
}

/// An in-memory tracer that propagates the way an OpenTelemetry tracer does: one W3C
/// `traceparent` header, built from hexadecimal trace and span ids.
struct W3CTracer: Tracer {
    let inner: InMemoryTracer

    init() {
        let counter = Counter()
        inner = InMemoryTracer(
            idGenerator: InMemoryTracer.IDGenerator(
                nextTraceID: { String(repeating: "0", count: 16) + Self.hex(counter.next(), width: 16) },
                nextSpanID: { Self.hex(counter.next(), width: 16) }
            )
        )
    }

    private static func hex(_ value: Int, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(width - digits.count, 0)) + digits
    }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> InMemorySpan {
        inner.startSpan(
            operationName,
            context: context(),
            ofKind: kind,
            at: instant(),
            function: function,
            file: fileID,
            line: line
        )
    }

    func forceFlush() {}

    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext,
        into carrier: inout Carrier,
        using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier,
        into context: inout ServiceContext,
        using extractor: Extract
    ) where Extract.Carrier == Carrier {}

    /// A thread-safe counter for ids.
    final class Counter: Sendable {
        private let value = Locked(0)

        func next() -> Int {
            value.withLock { value -> Int in
                value += 1
                return value
            }
        }
    }
}

/// Counts the events it sees.
final class CountingHooks: Hooks {
    private let events = Locked(0)

    var count: Int { events.withLock { $0 } }

    func operationStarted(_ event: OperationStartEvent) { events.withLock { $0 += 1 } }
    func operationEnded(_ event: OperationEndEvent) { events.withLock { $0 += 1 } }
    func requestStarted(_ event: RequestStartEvent) { events.withLock { $0 += 1 } }
    func requestEnded(_ event: RequestEndEvent) { events.withLock { $0 += 1 } }
}
