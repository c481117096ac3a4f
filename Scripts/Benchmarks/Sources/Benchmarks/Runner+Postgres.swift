import Foundation
import HTTPCore
import HTTPCorePostgres

extension Runner {
    // MARK: 11. Fleet coordination through PostgreSQL

    /// A row of a PostgreSQL workload that was not measured because no server was named.
    func appendSkippedWithoutDatabase(_ workload: String, _ variant: String, baseline: String?) {
        rows.append(
            Row(
                workload: workload,
                variant: variant,
                unit: .time,
                samples: [],
                baseline: baseline,
                note: "skipped: no database (--postgres-url or HTTPCORE_POSTGRES_URL)"
            )
        )
    }

    /// A permit from the PostgreSQL rate limiter in batches of 4 next to one statement per
    /// permit, and a credential load and adopt (the refresh lock, then a load) from
    /// `PostgresCredentialStore` next to `FileCredentialStore`: what coordinating a fleet costs
    /// a request. Runs against the server `--postgres-url` or `HTTPCORE_POSTGRES_URL` names
    /// (`Scripts/postgres.sh start` prints one); without, its rows say so and measure nothing.
    func postgres() async throws {
        guard let url = settings.postgresURL else {
            for (variant, baseline) in Self.postgresRows {
                appendSkippedWithoutDatabase("11. PostgreSQL", variant, baseline: baseline)
            }
            return
        }
        let database = try PostgresDatabase(url: url, schema: "httpcore_bench")
        try await database.withRunning { database in
            try await database.migrate()
            try await limiterPermits(database)
            try await credentialCalls(database)
        }
    }

    private static let postgresRows = [
        ("rate-limit permit, batches of 4", "a statement per permit"),
        ("credential load, PostgresCredentialStore", "FileCredentialStore"),
        ("credential adopt (refresh lock + load), PostgresCredentialStore", "FileCredentialStore"),
    ]

    /// Permits that never wait: a rate far above what one process asks, in a window short
    /// enough that the key's row holds as many grants as Basecamp's 50 per 10 s would.
    private func limiterPermits(_ database: PostgresDatabase) async throws {
        let rate = RequestRate(1_000_000, per: .milliseconds(20))
        let key = "bench-\(UUID().uuidString)"
        let batched = PostgresRateLimiter(database: database, limit: rate, batchSize: 4)
        let single = PostgresRateLimiter(database: database, limit: rate, batchSize: 1)
        let clock = SystemTimeSource()
        try await postgresRow(Self.postgresRows[0]) {
            try await batched.acquirePermit(for: key, deadline: nil, timeSource: clock)
        } baseline: {
            try await single.acquirePermit(for: key + "-single", deadline: nil, timeSource: clock)
        }
    }

    private func credentialCalls(_ database: PostgresDatabase) async throws {
        let credentials = TokenCredentials(
            accessToken: "bench-access",
            refreshToken: "bench-refresh",
            expiresAt: Date().addingTimeInterval(3600)
        )
        let shared = PostgresCredentialStore(database: database, integration: "bench", identity: UUID().uuidString)
        let folder = FileManager.default.temporaryDirectory.appending(path: "httpcore-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = FileCredentialStore(url: folder.appending(path: "credentials.json"))
        try await shared.save(credentials)
        try await file.save(credentials)
        try await postgresRow(Self.postgresRows[1]) {
            guard await shared.load() != nil else { throw BenchError("no stored credentials") }
        } baseline: {
            guard await file.load() != nil else { throw BenchError("no stored credentials") }
        }
        try await postgresRow(Self.postgresRows[2]) {
            guard try await shared.withRefreshLock({ await shared.load() }) != nil else {
                throw BenchError("no stored credentials")
            }
        } baseline: {
            guard try await file.withRefreshLock({ await file.load() }) != nil else {
                throw BenchError("no stored credentials")
            }
        }
        try await shared.remove()
    }

    /// Times both sides call by call in rotating chunks and adds a row of every call, its p99
    /// in the note: a batched permit's cost is in its tail (one call in four pays the statement).
    private func postgresRow(
        _ names: (variant: String, baseline: String),
        _ variant: @escaping () async throws -> Void,
        baseline: @escaping () async throws -> Void
    ) async throws {
        for side in [variant, baseline] { _ = try await timePerCall(max(settings.iterations / 5, 5), side) }
        let calls = try await rotatingChunks(
            rounds: settings.rounds * max(settings.iterations / 25, 1),
            [variant, baseline]
        )
        let (measured, base) = (calls[0], calls[1])
        let ratio = Stats.median(measured) / Stats.median(base)
        let p99 = { (samples: [Double]) in Format.value(Stats.percentile(samples, 0.99), .time) }
        rows.append(
            Row(
                workload: "11. PostgreSQL",
                variant: names.variant,
                unit: .time,
                samples: measured,
                baseline: names.baseline,
                baselineSamples: base,
                ratios: [ratio],
                meanRatios: [Stats.mean(measured) / Stats.mean(base)],
                note: "p99 \(p99(measured)) vs \(p99(base)); loopback PostgreSQL, \(measured.count) calls"
            )
        )
    }
}
