import PostgresTesting
import Testing

/// With `HTTPCORE_REQUIRE_POSTGRES=1` (`.ci/run`) a missing or silent server fails here, at once
/// and by name, rather than every suite that needs it being skipped.
@Suite("Postgres: the test server", .enabled(if: PostgresTestServer.isRequired))
struct PostgresTestServerTests {
    @Test("HTTPCORE_POSTGRES_URL names a server that answers")
    func answers() async throws {
        try #require(PostgresTestServer.url != nil, "HTTPCORE_REQUIRE_POSTGRES=1 but HTTPCORE_POSTGRES_URL is not set")
        #expect(
            await PostgresTestServer.answers(),
            "No PostgreSQL answers at \(PostgresTestServer.address): start one with Scripts/postgres.sh start"
        )
    }
}
