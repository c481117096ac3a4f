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

/// The cache, pagination and auth scenarios: their own hook events reach all three backends.
@Suite("Observability of cache, pages and auth")
struct FeatureTests {
    private let url = "https://api.example.com/v1/things/1"

    private var callMetadata: [String: String] {
        ["http.request.method": "GET", "url.full": url, "httpcore.operation": "GetThing", "httpcore.service": "things"]
    }

    /// Drops the process- and clock-dependent keys after checking them.
    private func stable(_ line: Observed.Line) -> Observed.Line {
        var line = line
        #expect(line.metadata.removeValue(forKey: "httpcore.call_id").flatMap { UInt64($0) } != nil)
        if line.message.hasPrefix("HTTP attempt") {
            #expect(line.metadata.removeValue(forKey: "httpcore.duration_ms").flatMap(Double.init) != nil)
        }
        if line.message == "HTTP cache event", let bytes = line.metadata.removeValue(forKey: "httpcore.cache.bytes") {
            #expect(Int(bytes).map { $0 > 0 } == true)
        }
        return line
    }

    @Test(
        "A cache revalidation: miss/stored then hit/revalidated, a 304 attempt from cache, cache metrics and span events"
    )
    func cacheRevalidation() async throws {
        let transport = ScriptedTransport([
            .json(["id": 1], headers: [.eTag: "\"v1\""]),
            .status(304, headers: [.eTag: "\"v1\""]),
        ])
        let observed = try observedClient(transport) { $0.cache = ResponseCache() }
        let endpoint = Endpoint<JSONValue>(.get, "things/1", operation: getThing)
        let first = try await observed.client.response(endpoint)
        let second = try await observed.client.response(endpoint)
        #expect(!first.fromCache && second.fromCache)
        #expect(transport.requests.last?.header("If-None-Match") == "\"v1\"")

        // Logs: cache lines at trace around each attempt line.
        func cacheLine(_ event: String) -> Observed.Line {
            Observed.Line(
                level: .trace,
                message: "HTTP cache event",
                metadata: callMetadata.merging(["httpcore.attempt": "1", "httpcore.cache.event": event]) { $1 }
            )
        }
        func attemptLine(status: Int, fromCache: Bool) -> Observed.Line {
            Observed.Line(
                level: .debug,
                message: "HTTP attempt finished",
                metadata: callMetadata.merging([
                    "httpcore.attempt": "1",
                    "http.response.status_code": "\(status)",
                    "httpcore.from_cache": "\(fromCache)",
                ]) { $1 }
            )
        }
        #expect(
            observed.lines.map(stable) == [
                cacheLine("miss"), attemptLine(status: 200, fromCache: false), cacheLine("stored"),
                cacheLine("hit"), attemptLine(status: 304, fromCache: true), cacheLine("revalidated"),
            ]
        )

        // Metrics
        let metrics = observed.metrics
        for event in ["miss", "stored", "hit", "revalidated"] {
            let dimensions = [("operation", "GetThing"), ("service", "things"), ("method", "GET"), ("event", event)]
            #expect(try metrics.expectCounter("httpcore.cache.events", dimensions).values == [1], "\(event)")
        }
        #expect(metrics.counters(label: "httpcore.cache.events").count == 4)
        #expect(
            try metrics.expectCounter("httpcore.requests", statusDimensions("GetThing", "things", "GET", "3xx"))
                .values == [1]
        )
        #expect(
            try metrics.expectCounter("httpcore.operations", statusDimensions("GetThing", "things", "GET", "2xx"))
                .values == [1, 1]
        )

        // Spans: the revalidated call's attempt is a 304 from cache; its call span lists the cache events.
        let spans = observed.spans
        try #require(spans.count == 4)
        let (attempt, call) = (spans[2], spans[3])
        #expect(attempt.parentSpanID == call.spanID)
        #expect(attributes(attempt)["http.response.status_code"] == 304)
        #expect(attributes(attempt)["httpcore.from_cache"] == true)
        #expect(attributes(attempt)["error.type"] == nil)
        #expect(attributes(call)["http.response.status_code"] == 200)
        #expect(call.events.map(\.name) == ["cache", "cache"])
        #expect(
            call.events.map { dictionary($0.attributes) } == [
                ["httpcore.cache.event": "hit", "httpcore.attempt": 1],
                ["httpcore.cache.event": "revalidated", "httpcore.attempt": 1],
            ]
        )
        #expect(spans[1].events.map { dictionary($0.attributes)["httpcore.cache.event"] } == ["miss", "stored"])
    }

    @Test("A 3-page walk: a page line and page metrics per page, a call span per page")
    func threePageWalk() async throws {
        let pages = [[1, 2], [3, 4], [5]]
        let transport = ScriptedTransport { request in
            let number = request.queryItems.first { $0.name == "page" }?.value.flatMap { Int($0) } ?? 1
            var headers: HTTPFields = [.contentType: "application/json", .xTotalCount: "5"]
            if number < pages.count { headers[.link] = #"</v1/items?page=\#(number + 1)>; rel="next""# }
            let body = "[" + pages[number - 1].map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]"
            return TransportResponse(
                response: HTTPResponse(status: .ok, headerFields: headers),
                body: Data(body.utf8),
                url: request.url
            )
        }
        let observed = try observedClient(transport)
        let list = OperationMetadata(name: "ListItems", service: "items")
        let items = try await observed.client.paginate(Endpoint<[Item]>(.get, "items", operation: list)).collect()
        #expect(items.map(\.id) == [1, 2, 3, 4, 5])

        // Logs: one page line per page, in order, and one attempt line per page.
        let base = "https://api.example.com/v1/items"
        let pageURLs = [base, base + "?page=2", base + "?page=3"]
        #expect(
            observed.lines.filter { $0.message == "HTTP page received" }
                == (0..<3).map { index in
                    Observed.Line(
                        level: .debug,
                        message: "HTTP page received",
                        metadata: [
                            "url.full": pageURLs[index],
                            "httpcore.operation": "ListItems",
                            "httpcore.service": "items",
                            "http.response.status_code": "200",
                            "httpcore.from_cache": "false",
                            "httpcore.page.index": "\(index)",
                            "httpcore.page.items": "\(pages[index].count)",
                            "httpcore.page.has_next": "\(index < 2)",
                            "httpcore.page.total_count": "5",
                        ]
                    )
                }
        )
        #expect(
            observed.lines.filter { $0.message == "HTTP attempt finished" }.map { $0.metadata["url.full"] } == pageURLs
        )

        // Metrics
        let metrics = observed.metrics
        let listDimensions = [("operation", "ListItems"), ("service", "items")]
        #expect(try metrics.expectCounter("httpcore.pages", listDimensions).values == [1, 1, 1])
        #expect(try metrics.expectCounter("httpcore.page.items", listDimensions).values == [2, 2, 1])
        #expect(
            try metrics.expectCounter("httpcore.requests", statusDimensions("ListItems", "items", "GET", "2xx")).values
                == [1, 1, 1]
        )

        // Spans: each page is a call with one attempt. Spans are kept as they end, and a
        // prefetched page's call can end before the page ahead of it, so they are put in the
        // order they started.
        let calls = observed.spans.filter { $0.kind == .internal }
            .sorted { $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch }
        #expect(calls.map(\.operationName) == ["ListItems", "ListItems", "ListItems"])
        #expect(calls.map { attributes($0)["url.full"] } == pageURLs.map { .string($0) })
        for call in calls {
            #expect(observed.spans.filter { $0.parentSpanID == call.spanID }.map(\.operationName) == ["GET"])
        }
    }

    @Test("A token refresh after a 401: an auth line, auth metrics and an auth span event; the replay is attempt 2")
    func tokenRefresh() async throws {
        let transport = ScriptedTransport([
            .json(["error": "expired"], status: 401),
            .json(["access_token": "access-2", "refresh_token": "refresh-2", "expires_in": 3600]),
            .json(["id": 1]),
        ])
        let auth = RefreshingTokenAuth(
            credentials: TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1"),
            refresh: RefreshEndpoint(path: "oauth/token")
        )
        let observed = try observedClient(transport) { $0.auth = auth }
        _ = try await observed.client.send(Endpoint<JSONValue>(.get, "things/1", operation: getThing))
        #expect(transport.requests.map { $0.header("Authorization") }.last == "Bearer access-2")

        let lines = observed.lines.map(stable)
        try #require(lines.count == 3)
        #expect(lines.map(\.message) == ["HTTP attempt finished", "HTTP credentials updated", "HTTP attempt finished"])
        #expect(
            lines[1]
                == Observed.Line(
                    level: .debug,
                    message: "HTTP credentials updated",
                    metadata: [
                        "httpcore.operation": "GetThing",
                        "httpcore.service": "things",
                        "httpcore.auth.event": "refreshed",
                        "httpcore.auth.trigger": "rejected",
                        "httpcore.auth.strategy": "RefreshingTokenAuth",
                        "httpcore.auth.valid_until": "2023-11-14T23:13:20Z",
                        "httpcore.duration_ms": "0.0",
                    ]
                )
        )
        #expect(lines.map { $0.metadata["httpcore.attempt"] } == ["1", nil, "2"])

        let authDimensions = [("strategy", "RefreshingTokenAuth"), ("event", "refreshed"), ("trigger", "rejected")]
        #expect(try observed.metrics.expectCounter("httpcore.auth.events", authDimensions).values == [1])
        #expect(try observed.metrics.expectTimer("httpcore.auth.duration", authDimensions).values == [0])

        let spans = observed.spans
        try #require(spans.count == 3)
        let call = spans[2]
        #expect(attributes(spans[0])["error.type"] == "401")
        #expect(attributes(spans[1])["http.request.resend_count"] == 1)
        #expect(
            call.events.map { dictionary($0.attributes) } == [
                [
                    "httpcore.auth.event": "refreshed",
                    "httpcore.auth.trigger": "rejected",
                    "httpcore.auth.strategy": "RefreshingTokenAuth",
                    "httpcore.auth.duration_ms": 0.0,
                ]
            ]
        )
        #expect(attributes(call)["httpcore.attempts"] == 2)
    }
}

private struct Item: Decodable, Sendable {
    var id: Int
}
