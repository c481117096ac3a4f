import Basecamp
import Foundation
import HTTPCore
import HTTPCorePostgres
import PostgresTesting
import Testing

/// `BASECAMP_CREDENTIALS_URL` also shares each account's rate budget: the built `basecamp` on
/// two "machines" (two config folders) spends from one budget in PostgreSQL, and waits out a
/// pause another process recorded. Needs `HTTPCORE_POSTGRES_URL`, as the sign-in test beside it.
@Suite(
    "The built basecamp sharing a rate budget in PostgreSQL",
    PostgresTestServer.trait,
    .timeLimit(.minutes(2))
)
struct RateBudgetPostgresProcessTests {
    @Test("two machines spend from one budget per account; a pause one process saw holds the other")
    @available(macOS 14, iOS 17, tvOS 17, *)
    func twoMachinesShareOneBudget() async throws {
        let url = try #require(PostgresTestServer.url)
        // An account of its own, so no other test's requests spend from this budget.
        let account = String(Int.random(in: 100_000_000...999_999_999))
        let folders = [SignInFolder(), SignInFolder()]
        defer { for folder in folders { folder.remove() } }
        try await withBasecampSandbox { _, base in
            let unshared = credentials(base).merging(["BASECAMP_ACCOUNT_ID": account]) { $1 }
            let machines = folders.map {
                unshared.merging($0.variables) { $1 }.merging(["BASECAMP_CREDENTIALS_URL": url]) { $1 }
            }
            let firstSpent = ContinuousClock.now
            let control = try await runBuiltBasecamp(["projects", "list"], variables: unshared)
            for machine in machines {
                let result = try await runBuiltBasecamp(["projects", "list"], variables: machine)
                #expect(result.exitCode == control.exitCode, "\(result.stderr)")
            }

            let database = try PostgresDatabase(url: url)
            try await database.withRunning { database in
                // The tool's limit and lease lifetime, so this limiter reads the same budget.
                let limiter = PostgresRateLimiter(database: database, limit: .basecamp, batchSize: 1)
                // Timed from before the pause is recorded: the server dates it, and this task
                // may resume seconds after that on a loaded machine.
                let start = ContinuousClock.now
                await limiter.pause(account, for: .seconds(2), timeSource: .system)
                let paused = try await runBuiltBasecamp(["projects", "list"], variables: machines[1])
                #expect(paused.exitCode == control.exitCode, "\(paused.stderr)")
                #expect(ContinuousClock.now - start >= .milliseconds(1900))

                // Three requests spent from the 50: the control run, without the URL, spent none.
                let now = SystemTimeSource().monotonicNow()
                var left = 0
                while (try? await limiter.acquirePermit(for: account, deadline: now, timeSource: .system)) != nil {
                    left += 1
                }
                // Judged while the first permits still count: a loaded machine can take longer
                // than Basecamp's window to get here, and then they have rightly expired.
                if ContinuousClock.now - firstSpent < .seconds(10) {
                    #expect(left == 47)
                } else {
                    #expect(left >= 47)
                }
            }
        }
    }
}
