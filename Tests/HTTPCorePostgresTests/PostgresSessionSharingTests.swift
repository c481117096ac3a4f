import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import PostgresTesting
import Testing

@testable import HTTPCorePostgres

/// A session-login API (Markbook's 20-minute sessions) used by a fleet sharing one store.
@Suite("Postgres: a fleet shares one session login", PostgresTestServer.trait, .timeLimit(.minutes(2)))
struct PostgresSessionSharingTests {
    @Test("8 workers on 2 pools start at once: one login between them, every call with its session")
    func oneLoginForTheFleet() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            let identity = PostgresTestServer.uniqueKey("session")
            let logins = Locked(0)
            let transport = ScriptedTransport { request in
                if request.url.path.hasSuffix("/login") {
                    let number = logins.withLock { count -> Int in
                        count += 1
                        return count
                    }
                    return Self.answer(request, ["session": .string("s-\(number)")])
                }
                let session = request.queryItems.first { $0.name == "session" }?.value
                return Self.answer(request, ["session": session.map(JSONValue.string) ?? .null])
            }
            let sessions = try await withThrowingTaskGroup(of: String?.self) { group in
                for worker in 0..<8 {
                    let store = PostgresCredentialStore(
                        database: pools[worker % 2],
                        integration: "session",
                        identity: identity
                    )
                    let auth = SessionLoginAuth(valueNames: ["session"], store: store) { context in
                        let body = try JSONValue(parsing: try await context.send(.post, "login").body)
                        return SessionLoginAuth.Session(["session": body["session"]?.stringValue ?? ""])
                    }
                    let client = try Client(
                        configuration: ClientConfiguration(
                            baseURL: try #require(URL(string: "https://api.example.com")),
                            auth: auth
                        ),
                        transport: transport
                    )
                    group.addTask { try await client.send(Endpoint<JSONValue>(.get, "marks"))["session"]?.stringValue }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(logins.withLock { $0 } == 1)
            #expect(sessions == Array(repeating: "s-1", count: 8))
        }
    }

    private static func answer(_ request: ScriptedTransport.RecordedRequest, _ json: JSONValue) -> TransportResponse {
        TransportResponse(
            response: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
            body: json.encoded(),
            url: request.url
        )
    }
}
