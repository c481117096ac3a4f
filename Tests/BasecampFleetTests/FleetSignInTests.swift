import Basecamp
import HTTPCore
import HTTPCorePostgres
import Testing

@testable import BasecampFleet

@Suite("Fleet sign-in")
struct FleetSignInTests {
    @Test("The webhook's request takes a permit from the fleet's shared budget when it is coordinated")
    func sharedBudget() throws {
        let fleet = try FleetOptions.parse([
            "--sandbox", "http://127.0.0.1:9", "--database", "postgres://fleet@127.0.0.1:9/fleet",
        ])
        // Never started: the configuration is only built, so nothing connects.
        let database = try PostgresDatabase(url: "postgres://fleet@127.0.0.1:9/fleet")
        let coordinated = FleetSignInCommand.apiConfiguration(fleet, database: database)
        let limiter = try #require(coordinated.rateLimiter as? PostgresRateLimiter)
        #expect(limiter.limit == RequestRate(5, per: .seconds(1)))
        #expect(limiter.batchSize == 1)
        #expect(coordinated.baseURL == fleet.apiURL)
        #expect(FleetSignInCommand.apiConfiguration(fleet, database: nil).rateLimiter == nil)
    }
}
