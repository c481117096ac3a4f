import Foundation
import HTTPCore
import HTTPCoreObservability
import HTTPCoreTesting
import HTTPTypes
import InMemoryTracing
import Logging
import MetricsTestKit
import Testing
import Tracing

/// The done-when scenarios: exact log lines, metric series and span attributes for each.
@Suite("Observability scenarios")
struct ScenarioTests {
    private let url = "https://api.example.com/v1/things/1"

    /// Metadata every line of a `GetThing` call carries, besides the call id.
    private var callMetadata: [String: String] {
        [
            "http.request.method": "GET",
            "url.full": url,
            "httpcore.operation": "GetThing",
            "httpcore.service": "things",
        ]
    }

    /// The attributes every span of a GET of ``url`` records, plus `extra`.
    private func getSpan(_ extra: [String: SpanAttribute]) -> [String: SpanAttribute] {
        extra.merging(
            [
                "http.request.method": "GET",
                "url.full": .string(url),
                "server.address": "api.example.com",
                "server.port": 443,
            ],
            uniquingKeysWith: { _, base in base }
        )
    }

    /// The attributes of a `GetThing` call's span, plus `extra`.
    private func getThingCallSpan(_ extra: [String: SpanAttribute]) -> [String: SpanAttribute] {
        let operation: [String: SpanAttribute] = [
            "httpcore.operation.name": "GetThing",
            "httpcore.operation.service": "things",
        ]
        return getSpan(extra.merging(operation) { _, name in name })
    }

    /// Removes the keys whose values depend on the process (call id) or the real clock
    /// (attempt duration), after checking they are well-formed.
    private func stable(_ line: Observed.Line, callID: String) -> Observed.Line {
        var line = line
        #expect(line.metadata.removeValue(forKey: "httpcore.call_id") == callID)
        if line.message.hasPrefix("HTTP attempt") {
            let duration = line.metadata.removeValue(forKey: "httpcore.duration_ms").flatMap(Double.init)
            #expect(duration.map { $0 >= 0 } == true, "attempt lines carry a duration in ms")
        }
        return line
    }

    @Test("A success: one debug line, request and operation series, a call span with one attempt span")
    func success() async throws {
        let transport = ScriptedTransport([.json(["id": 1], headers: [.xRequestID: "r-1"])])
        let observed = try observedClient(transport)
        _ = try await observed.client.send(Endpoint<JSONValue>(.get, "things/1", operation: getThing))

        // Logs
        let lines = observed.lines
        try #require(lines.count == 1)
        let callID = try #require(lines[0].metadata["httpcore.call_id"])
        #expect(
            stable(lines[0], callID: callID)
                == Observed.Line(
                    level: .debug,
                    message: "HTTP attempt finished",
                    metadata: callMetadata.merging([
                        "httpcore.attempt": "1",
                        "http.response.status_code": "200",
                        "httpcore.request_id": "r-1",
                        "httpcore.from_cache": "false",
                    ]) { $1 }
                )
        )

        // Metrics
        let metrics = observed.metrics
        let ok = statusDimensions("GetThing", "things", "GET", "2xx")
        #expect(
            series(metrics) == [
                "httpcore.requests{operation=GetThing,service=things,method=GET,status_class=2xx}",
                "httpcore.request.duration{operation=GetThing,service=things,method=GET,status_class=2xx}",
                "httpcore.operations{operation=GetThing,service=things,method=GET,status_class=2xx}",
                "httpcore.operation.duration{operation=GetThing,service=things,method=GET,status_class=2xx}",
            ]
        )
        #expect(try metrics.expectCounter("httpcore.requests", ok).values == [1])
        #expect(try metrics.expectTimer("httpcore.request.duration", ok).values.count == 1)
        #expect(try metrics.expectCounter("httpcore.operations", ok).values == [1])
        #expect(try metrics.expectTimer("httpcore.operation.duration", ok).values == [0])

        // Spans: the attempt ends first, inside its call.
        let spans = observed.spans
        try #require(spans.count == 2)
        let (attempt, call) = (spans[0], spans[1])
        #expect(call.operationName == "GetThing")
        #expect(call.kind == .internal)
        #expect(call.parentSpanID == nil)
        #expect(
            attributes(call)
                == getThingCallSpan([
                    "httpcore.attempts": 1,
                    "http.response.status_code": 200,
                ])
        )
        #expect(call.status == nil)
        #expect(attempt.operationName == "GET")
        #expect(attempt.kind == .client)
        #expect(attempt.parentSpanID == call.spanID)
        #expect(attempt.traceID == call.traceID)
        #expect(
            attributes(attempt)
                == getSpan([
                    "http.response.status_code": 200,
                    "httpcore.request_id": "r-1",
                    "httpcore.from_cache": false,
                ])
        )
        #expect(attempt.errors.isEmpty && call.errors.isEmpty)

        // The attempt's context went out in the request headers, through the instrument.
        let sent = try #require(transport.requests.first)
        #expect(sent.header(InMemoryTracer.traceIDKey) == attempt.traceID)
        #expect(sent.header(InMemoryTracer.spanIDKey) == attempt.spanID)
    }

    @Test("A retried success (503 then 200): attempt lines, a retry warning, a retry metric, two attempt spans")
    func retriedSuccess() async throws {
        let transport = ScriptedTransport([
            .status(503, headers: [.xRequestID: "r-1"]),
            .json(["id": 1], headers: [.xRequestID: "r-2"]),
        ])
        let observed = try observedClient(transport) { $0.retry = exactRetry }
        _ = try await observed.client.send(Endpoint<JSONValue>(.get, "things/1", operation: getThing))
        #expect(observed.clock.sleeps == [.seconds(1)])

        // Logs
        let lines = observed.lines
        try #require(lines.count == 3)
        let callID = try #require(lines[0].metadata["httpcore.call_id"])
        #expect(
            lines.map { stable($0, callID: callID) } == [
                Observed.Line(
                    level: .debug,
                    message: "HTTP attempt finished",
                    metadata: callMetadata.merging([
                        "httpcore.attempt": "1",
                        "http.response.status_code": "503",
                        "httpcore.request_id": "r-1",
                        "httpcore.from_cache": "false",
                    ]) { $1 }
                ),
                Observed.Line(
                    level: .warning,
                    message: "Retrying HTTP request",
                    metadata: callMetadata.merging([
                        "httpcore.attempt": "1",
                        "httpcore.retry.delay_ms": "1000.0",
                        "httpcore.retry.reason": "api_error",
                        "http.response.status_code": "503",
                        "httpcore.request_id": "r-1",
                    ]) { $1 }
                ),
                Observed.Line(
                    level: .debug,
                    message: "HTTP attempt finished",
                    metadata: callMetadata.merging([
                        "httpcore.attempt": "2",
                        "http.response.status_code": "200",
                        "httpcore.request_id": "r-2",
                        "httpcore.from_cache": "false",
                    ]) { $1 }
                ),
            ]
        )

        // Metrics
        let metrics = observed.metrics
        #expect(
            series(metrics) == [
                "httpcore.requests{operation=GetThing,service=things,method=GET,status_class=5xx}",
                "httpcore.requests{operation=GetThing,service=things,method=GET,status_class=2xx}",
                "httpcore.request.duration{operation=GetThing,service=things,method=GET,status_class=5xx}",
                "httpcore.request.duration{operation=GetThing,service=things,method=GET,status_class=2xx}",
                "httpcore.retries{operation=GetThing,service=things,method=GET,error_code=api_error}",
                "httpcore.operations{operation=GetThing,service=things,method=GET,status_class=2xx}",
                "httpcore.operation.duration{operation=GetThing,service=things,method=GET,status_class=2xx}",
            ]
        )
        let ok = statusDimensions("GetThing", "things", "GET", "2xx")
        #expect(try metrics.expectCounter("httpcore.requests", ok).values == [1])
        #expect(
            try metrics.expectCounter("httpcore.requests", statusDimensions("GetThing", "things", "GET", "5xx")).values
                == [1]
        )
        #expect(
            try metrics.expectCounter("httpcore.retries", errorDimensions("GetThing", "things", "GET", "api_error"))
                .values == [1]
        )
        #expect(try metrics.expectCounter("httpcore.operations", ok).values == [1])
        #expect(try metrics.expectTimer("httpcore.operation.duration", ok).values == [1_000_000_000])

        // Spans
        let spans = observed.spans
        try #require(spans.count == 3)
        let (first, second, call) = (spans[0], spans[1], spans[2])
        #expect(first.parentSpanID == call.spanID && second.parentSpanID == call.spanID)
        #expect(
            attributes(first)
                == getSpan([
                    "http.response.status_code": 503,
                    "error.type": "503",
                    "httpcore.request_id": "r-1",
                    "httpcore.from_cache": false,
                ])
        )
        #expect(first.status?.code == .error)
        #expect(
            attributes(second)
                == getSpan([
                    "http.request.resend_count": 1,
                    "http.response.status_code": 200,
                    "httpcore.request_id": "r-2",
                    "httpcore.from_cache": false,
                ])
        )
        #expect(second.status == nil)
        #expect(attributes(call)["httpcore.attempts"] == 2)
        #expect(attributes(call)["http.response.status_code"] == 200)
        #expect(call.status == nil)
        #expect(call.events.map(\.name) == ["retry"])
        #expect(
            call.events.map { dictionary($0.attributes) } == [
                ["httpcore.attempt": 1, "httpcore.retry.delay_ms": 1000.0, "error.type": "api_error"]
            ]
        )

        // Each attempt sent its own span's context.
        #expect(transport.requests.map { $0.header(InMemoryTracer.spanIDKey) } == [first.spanID, second.spanID])
    }

    @Test("A final failure: failed attempts, retries, one error line with the code, errored spans")
    func finalFailure() async throws {
        let transport = ScriptedTransport([.connectionRefused, .connectionRefused, .connectionRefused])
        let observed = try observedClient(transport) { $0.retry = exactRetry }
        let error = await caughtAPIError {
            _ = try await observed.client.send(Endpoint<JSONValue>(.get, "things/1", operation: getThing))
        }
        #expect(error?.code == .network)

        // Logs
        let lines = observed.lines
        try #require(lines.count == 6)
        let callID = try #require(lines[0].metadata["httpcore.call_id"])
        func failedAttempt(_ attempt: Int) -> Observed.Line {
            Observed.Line(
                level: .debug,
                message: "HTTP attempt failed",
                metadata: callMetadata.merging([
                    "httpcore.attempt": "\(attempt)",
                    "httpcore.error.code": "network",
                    "httpcore.from_cache": "false",
                ]) { $1 }
            )
        }
        func retry(_ attempt: Int, _ delay: String) -> Observed.Line {
            Observed.Line(
                level: .warning,
                message: "Retrying HTTP request",
                metadata: callMetadata.merging([
                    "httpcore.attempt": "\(attempt)",
                    "httpcore.retry.delay_ms": delay,
                    "httpcore.retry.reason": "network",
                ]) { $1 }
            )
        }
        #expect(
            lines.map { stable($0, callID: callID) } == [
                failedAttempt(1), retry(1, "1000.0"), failedAttempt(2), retry(2, "2000.0"), failedAttempt(3),
                Observed.Line(
                    level: .error,
                    message: "HTTP call failed",
                    metadata: callMetadata.merging([
                        "httpcore.attempts": "3",
                        "httpcore.duration_ms": "3000.0",
                        "httpcore.error.code": "network",
                        "httpcore.error.message": "Connection refused.",
                    ]) { $1 }
                ),
            ]
        )
        #expect(observed.logs.entries.last?.error.map { "\($0)" } == error.map { "\($0)" })

        // Metrics
        let metrics = observed.metrics
        let failed = statusDimensions("GetThing", "things", "GET", "error")
        let network = errorDimensions("GetThing", "things", "GET", "network")
        #expect(
            series(metrics) == [
                "httpcore.requests{operation=GetThing,service=things,method=GET,status_class=error}",
                "httpcore.request.duration{operation=GetThing,service=things,method=GET,status_class=error}",
                "httpcore.retries{operation=GetThing,service=things,method=GET,error_code=network}",
                "httpcore.operations{operation=GetThing,service=things,method=GET,status_class=error}",
                "httpcore.operation.duration{operation=GetThing,service=things,method=GET,status_class=error}",
                "httpcore.errors{operation=GetThing,service=things,method=GET,error_code=network}",
            ]
        )
        #expect(try metrics.expectCounter("httpcore.requests", failed).totalValue == 3)
        #expect(try metrics.expectCounter("httpcore.retries", network).totalValue == 2)
        #expect(try metrics.expectCounter("httpcore.operations", failed).values == [1])
        #expect(try metrics.expectCounter("httpcore.errors", network).values == [1])
        #expect(try metrics.expectTimer("httpcore.operation.duration", failed).values == [3_000_000_000])

        // Spans
        let spans = observed.spans
        try #require(spans.count == 4)
        let call = spans[3]
        for (index, attempt) in spans.prefix(3).enumerated() {
            var expected = getSpan([
                "error.type": "network",
                "httpcore.from_cache": false,
            ])
            if index > 0 { expected["http.request.resend_count"] = .int64(Int64(index)) }
            #expect(attributes(attempt) == expected)
            #expect(attempt.status?.code == .error)
            #expect(attempt.errors.count == 1)
            #expect(attempt.parentSpanID == call.spanID)
        }
        #expect(
            attributes(call)
                == getThingCallSpan([
                    "httpcore.attempts": 3,
                    "error.type": "network",
                ])
        )
        #expect(call.status?.code == .error)
        #expect(call.errors.map { "\($0.error)" } == [error.map { "\($0)" }])
        #expect(call.events.map(\.name) == ["retry", "retry"])
    }

    @Test("A download whose file cannot be written is a failed call, not a cancelled one, in logs, metrics and spans")
    func fileWriteFailure() async throws {
        let full = FileWriteError(path: "report.pdf", reason: .system(errno: ENOSPC))
        let transport = ScriptedTransport([
            .stream { _, sink in
                try sink.begin(HTTPResponse(status: .ok, headerFields: [.contentLength: "10"]))
                throw full
            }
        ])
        let observed = try observedClient(transport)
        let directory = FileManager.default.temporaryDirectory.appending(path: "observed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let operation = OperationMetadata(name: "GetThing", service: "things")
        let endpoint = Endpoint<Data>(.get, "things/1", operation: operation)
        await #expect(throws: full) {
            try await observed.client.download(endpoint, to: directory.appending(path: "report.pdf"))
        }

        let failed = try #require(observed.lines.last)
        #expect(failed.message == "HTTP call failed")
        #expect(failed.metadata["httpcore.error.code"] == "file_write")
        #expect(failed.metadata["httpcore.error.message"] == "Cannot write report.pdf: No space left on device.")
        #expect(!observed.lines.contains { $0.message == "HTTP call cancelled" })

        let metrics = observed.metrics
        #expect(
            try metrics.expectCounter("httpcore.errors", errorDimensions("GetThing", "things", "GET", "file_write"))
                .values == [1]
        )
        #expect(
            try metrics.expectCounter("httpcore.operations", statusDimensions("GetThing", "things", "GET", "error"))
                .values == [1]
        )

        let call = try #require(observed.spans.last)
        #expect(attributes(call)["error.type"] == "file_write")
        #expect(attributes(call)["httpcore.cancelled"] == nil)
        #expect(call.status?.code == .error)
    }
}
