import Foundation
import HTTPCorePostgres
public import Testing

/// The PostgreSQL server this package's tests use: the one `HTTPCORE_POSTGRES_URL` names, which
/// `Scripts/postgres.sh start` prints.
///
/// A suite that needs it carries ``trait``: it runs when the server answers, and is skipped,
/// saying how to start one, when no URL is set or nothing answers there. `.ci/run` also sets
/// `HTTPCORE_REQUIRE_POSTGRES=1`, under which a missing or silent server fails the run (see
/// ``isRequired``).
public enum PostgresTestServer {
    /// The server's URL; `nil` when `HTTPCORE_POSTGRES_URL` is unset or empty.
    public static let url = ProcessInfo.processInfo.environment["HTTPCORE_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Whether the run must have the server (`HTTPCORE_REQUIRE_POSTGRES=1`): a test that checks
    /// for it then fails when it is missing or silent, instead of the suites being skipped.
    public static let isRequired = ProcessInfo.processInfo.environment["HTTPCORE_REQUIRE_POSTGRES"] == "1"

    /// Where the server is, as `HTTPCorePostgres` reads the URL, without its user and password,
    /// for messages.
    public static var address: String {
        guard let url, let server = try? PostgresDatabase.configuration(url: url) else { return "no usable URL" }
        return "\(server.host ?? "?"):\(server.port.map(String.init) ?? "?")"
    }

    /// The condition for a suite that needs the server: met when it answers.
    public static let trait = ConditionTrait.enabled(
        "Needs PostgreSQL: export HTTPCORE_POSTGRES_URL=$(Scripts/postgres.sh start), then Scripts/postgres.sh stop"
    ) {
        await answers()
    }

    /// Whether the server answers a query, asked once per process.
    ///
    /// Without it, a URL left set after the server stopped had every test wait out its
    /// connections' timeout and fail minutes later.
    public static func answers() async -> Bool {
        await probe.value
    }

    private static let probe = Task { () -> Bool in
        guard let url, let database = try? PostgresDatabase(url: url, maximumConnections: 1) else { return false }
        return (try? await database.withRunning { try await $0.schemaVersion() }) != nil
    }
}
