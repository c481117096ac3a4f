import Foundation
import HTTPCore
import HTTPCorePostgres

extension Runner {
    // MARK: 10. Shared-cache hit

    /// A cache hit answered 304 by an in-memory transport, with the entry in PostgreSQL (one
    /// `SELECT` per hit) next to the same hit with the entry in memory: what sharing the cache
    /// across a fleet costs per request. Skipped unless `--postgres-url` or `HTTPCORE_POSTGRES_URL` names
    /// a server.
    func sharedCacheHit() async throws {
        let workload = "10. shared-cache hit"
        let variant = "Client + PostgresCacheStorage, in-memory 304"
        guard let url = settings.postgresURL else {
            appendSkippedWithoutDatabase(workload, variant, baseline: nil)
            return
        }
        let body = try BenchDocument.encoded()
        let database = try PostgresDatabase(url: url, schema: "httpcore_bench")
        try await database.withRunning { database in
            let storage = PostgresCacheStorage(database: database, namespace: "bench-\(UUID().uuidString)")
            let shared = try Self.inMemoryClient(
                baseURL: baseURL,
                body: body,
                revalidating: true,
                cache: ResponseCache(shared: storage)
            )
            let memory = try Self.inMemoryClient(baseURL: baseURL, body: body, revalidating: true)
            for client in [shared, memory] {
                _ = try await client.send(Self.document)
                guard try await client.response(Self.document).fromCache else {
                    throw BenchError("the cache did not revalidate /bench/doc")
                }
            }
            let sides = try await measure([
                { Sink.consume(try await shared.send(Self.document).entries.count) },
                { Sink.consume(try await memory.send(Self.document).entries.count) },
            ])
            rows.append(
                Row(
                    workload: workload,
                    variant: variant,
                    unit: .time,
                    measured: sides.pair(0, against: 1),
                    baseline: "Client + memory ResponseCache, in-memory 304",
                    note: "one loopback SELECT per hit"
                )
            )
            try await storage.removeAll()
        }
    }
}
