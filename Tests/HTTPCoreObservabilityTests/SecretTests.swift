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

@Suite("Observability never shows secrets")
struct SecretTests {
    /// Every secret contains this marker, so one search finds any of them.
    private static let marker = "SECRET"

    @Test("No token, password, API key, session value or Authorization reaches a log line, label or span")
    func noSecrets() async throws {
        let apiKeyHeader = try #require(HTTPField.Name("X-API-Key"))
        let transport = ScriptedTransport([
            .status(503, headers: [.setCookie: "session=sess-SECRET-set-cookie"]),
            .json(["error": "invalid_token"], status: 401, headers: [.wwwAuthenticate: "Bearer realm=\"api\""]),
            .json([
                "access_token": "tok-SECRET-new", "refresh_token": "rt-SECRET-new", "expires_in": 3600,
            ]),
            .json(["ok": true], headers: [.setCookie: "session=sess-SECRET-set-cookie"]),
            .json(["error": "forbidden"], status: 403),
        ])
        let auth = RefreshingTokenAuth(
            credentials: TokenCredentials(accessToken: "tok-SECRET-old", refreshToken: "rt-SECRET-old"),
            refresh: RefreshEndpoint(path: "oauth/token")
        )
        let observed = try observedClient(transport) { configuration in
            configuration.retry = exactRetry
            configuration.auth = auth
            configuration.defaultHeaders = [
                .cookie: "session=sess-SECRET-cookie",
                apiKeyHeader: "key-SECRET-header",
            ]
            configuration.redactor.addSecretHeader(apiKeyHeader)
            for name in ["api_key", "password", "sessiontoken"] { configuration.redactor.addSecretQueryParameter(name) }
        }
        let query: QueryParameters = [
            "api_key": "key-SECRET-query",
            "password": "pw-SECRET-query",
            "sessiontoken": "sess-SECRET-query",
            "page": "2",
        ]
        _ = try await observed.client.send(Endpoint<JSONValue>(.get, "things", query: query, operation: getThing))
        let failure = await caughtAPIError {
            _ = try await observed.client.send(Endpoint<JSONValue>(.post, "things", query: query, operation: getThing))
        }
        #expect(failure?.code == .forbidden)

        // The secrets really went out, so the scan below is meaningful.
        #expect(transport.requests.first?.header("Authorization") == "Bearer tok-SECRET-old")
        #expect(transport.requests.last?.header("Authorization") == "Bearer tok-SECRET-new")
        #expect(transport.requests.contains { $0.bodyText?.contains("rt-SECRET-old") == true })
        #expect(transport.requests.first?.url.absoluteString.contains("pw-SECRET-query") == true)

        var shown: [String] = []
        for entry in observed.logs.entries {
            shown.append(entry.message.description)
            shown.append(contentsOf: entry.metadata.map { "\($0.key)=\($0.value)" })
            if let error = entry.error { shown.append("\(error)") }
        }
        for counter in observed.metrics.counters {
            shown.append(counter.label)
            shown.append(contentsOf: counter.dimensions.map { "\($0.0)=\($0.1)" })
        }
        for timer in observed.metrics.timers {
            shown.append(timer.label)
            shown.append(contentsOf: timer.dimensions.map { "\($0.0)=\($0.1)" })
        }
        for span in observed.spans {
            shown.append(span.operationName)
            shown.append(contentsOf: attributes(span).map { "\($0.key)=\($0.value)" })
            for event in span.events {
                shown.append(event.name)
                shown.append(contentsOf: dictionary(event.attributes).map { "\($0.key)=\($0.value)" })
            }
            shown.append(contentsOf: span.errors.map { "\($0.error)" })
            if let message = span.status?.message { shown.append(message) }
        }

        #expect(observed.logs.entries.map(\.message.description).contains("HTTP credentials updated"))
        #expect(observed.spans.count == 6)
        #expect(shown.contains { $0.contains("[REDACTED]") }, "redacted URLs were shown, so the scan saw them")
        let leaks = shown.filter { $0.contains(Self.marker) || $0.lowercased().contains("bearer") }
        #expect(leaks.isEmpty, "secrets shown: \(leaks)")
    }
}
