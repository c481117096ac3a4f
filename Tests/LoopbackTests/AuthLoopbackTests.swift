import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird
import Testing

/// A token API on the sandbox: `POST /auth-test/token` issues `access-N`; `GET /auth-test/items`
/// answers 200 to the current access token and 401 to any other.
private struct TokenRoutes: SandboxModule {
    final class Tally: Sendable {
        private struct Counts: Sendable {
            var current = "access-1"
            var issued = 1
            var refreshes = 0
            var accepted = 0
            var rejected = 0
        }

        private let counts = Locked(Counts())

        var refreshes: Int { counts.withLock { $0.refreshes } }
        var accepted: Int { counts.withLock { $0.accepted } }
        var rejected: Int { counts.withLock { $0.rejected } }

        /// Makes the server forget the token the client holds.
        func revoke() { counts.withLock { $0.current = "revoked" } }

        func refresh() -> String {
            counts.withLock { counts -> String in
                counts.refreshes += 1
                counts.issued += 1
                counts.current = "access-\(counts.issued)"
                return counts.current
            }
        }

        func check(_ authorization: String?) -> Bool {
            counts.withLock { counts -> Bool in
                let ok = authorization == "Bearer \(counts.current)"
                if ok { counts.accepted += 1 } else { counts.rejected += 1 }
                return ok
            }
        }
    }

    let tally: Tally

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        let group = router.group("auth-test")
        group.post("token") { _, _ -> [String: String] in
            ["access_token": tally.refresh(), "refresh_token": "refresh-next", "expires_in": "3600"]
        }
        group.get("items") { request, _ -> [String: String] in
            guard tally.check(request.headers[.authorization]) else { throw HTTPError(.unauthorized) }
            return ["ok": "yes"]
        }
    }
}

@Suite("Auth over loopback")
struct AuthLoopbackTests {
    @Test(
        "100 concurrent requests with a revoked token → exactly 1 refresh over real HTTP, all succeed",
        .timeLimit(.minutes(2 * SanitizerRun.slowdown)),
        arguments: TransportUnderTest.allCases
    )
    func singleFlightRefresh(kind: TransportUnderTest) async throws {
        let tally = TokenRoutes.Tally()
        tally.revoke()
        try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [TokenRoutes(tally: tally)])) {
            sandbox in
            let auth = RefreshingTokenAuth(
                credentials: TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1"),
                refresh: RefreshEndpoint(path: "auth-test/token")
            )
            let client = try makeClient(sandbox, kind.make()) { $0.auth = auth }

            let results = try await withThrowingTaskGroup(of: JSONValue.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await client.send(Endpoint<JSONValue>(.get, "auth-test/items")) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(results.count == 100)
            #expect(results.allSatisfy { $0["ok"] == "yes" })
            #expect(tally.refreshes == 1)
            #expect(tally.accepted == 100)
            // Each rejected request was replayed once; requests sent after the refresh were
            // accepted at once.
            #expect(tally.rejected >= 1 && tally.rejected <= 100)
            #expect(sandbox.counters().requestsByPath["/auth-test/token"] == 1)
            #expect(await auth.credentials?.accessToken == "access-2")
        }
    }
}
