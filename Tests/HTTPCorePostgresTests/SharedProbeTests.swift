import HTTPCore
import HTTPCoreTesting
import Testing

@testable import HTTPCorePostgres

/// Asking the server why the pool cannot connect, without a PostgreSQL server: the rules for
/// which answers refuse for good, and one probe shared by every waiting operation.
@Suite("PostgreSQL: the probe of a pool that cannot connect")
struct SharedProbeTests {
    @Test(
        "Only a refused user, password or database fails operations at once",
        arguments: [
            ("28P01", true), ("28000", true), ("3D000", true), ("57P03", false), ("53300", false),
            ("08006", false), ("3F000", false),
        ]
    )
    func refusals(sqlState: String, refuses: Bool) {
        #expect(PostgresDatabase.isRefusal(sqlState) == refuses)
        #expect(!PostgresDatabase.isRefusal(nil))
    }

    @Test("Twenty operations waiting at once share one probe and its outcome", .timeLimit(.minutes(1)))
    func oneProbeForAll() async throws {
        let probe = SharedProbe<String>()
        let runs = Locked(0)
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let outcomes = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    await probe.outcome {
                        runs.withLock { $0 += 1 }
                        for await _ in release { break }
                        return "refused"
                    }
                }
            }
            // One caller runs the probe and the other 19 wait for it before it ends.
            #expect(await waitUntil { runs.withLock { $0 } == 1 && probe.waiterCount == 19 })
            releaser.yield()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.withLock { $0 } == 1)
        #expect(outcomes.count == 20)
        #expect(outcomes.allSatisfy { $0 == "refused" })
    }

    @Test("A waiter that is cancelled stops waiting at once; the probe goes on for the others", .timeLimit(.minutes(1)))
    func cancelledWaiter() async throws {
        let probe = SharedProbe<String>()
        let started = Locked(false)
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let leader = Task {
            await probe.outcome {
                started.withLock { $0 = true }
                for await _ in release { break }
                return "refused"
            }
        }
        #expect(await waitUntil { started.withLock { $0 } })
        let waiter = Task { await probe.outcome { "a second probe" } }
        #expect(await waitUntil { probe.waiterCount == 1 })
        waiter.cancel()
        #expect(await waiter.value == nil)
        releaser.yield()
        #expect(await leader.value == "refused")
        // The next one to ask runs a probe of its own.
        #expect(await probe.outcome { "again" } == "again")
    }
}
