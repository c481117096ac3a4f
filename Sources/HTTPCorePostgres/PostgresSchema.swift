/// The tables, as ordered migrations of SQL statements. A migration is never edited once
/// released: a change is a new migration at the end. The DocC article shows the same SQL for
/// the `httpcore` schema.
enum PostgresSchema {
    /// What every migration run creates first (idempotent): the schema and its version table.
    static func bootstrap(in schema: String) -> [String] {
        [
            "CREATE SCHEMA IF NOT EXISTS \(schema)",
            """
            CREATE TABLE IF NOT EXISTS \(schema).schema_version (
                version integer PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """,
        ]
    }

    /// The migrations, in order; migration N brings the schema to version N.
    static func migrations(in schema: String) -> [[String]] {
        [
            // 1: credentials, keyed by integration and identity.
            [
                """
                CREATE TABLE \(schema).credentials (
                    integration text NOT NULL,
                    identity text NOT NULL,
                    access_token text NOT NULL,
                    refresh_token text,
                    expires_at timestamptz,
                    token_type text,
                    scope text,
                    resource text,
                    updated_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (integration, identity)
                )
                """
            ],
            // 2: webhook deliveries claimed or handled, per receiver.
            [
                """
                CREATE TABLE \(schema).webhook_deliveries (
                    receiver text NOT NULL,
                    event_id text NOT NULL,
                    state text NOT NULL CHECK (state IN ('claimed', 'handled')),
                    claim_token text NOT NULL,
                    lease_until timestamptz NOT NULL,
                    updated_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (receiver, event_id)
                )
                """,
                "CREATE INDEX webhook_deliveries_by_age ON \(schema).webhook_deliveries (receiver, updated_at)",
            ],
            // 3: the shared ETag cache; write_order is the eviction order (oldest stored first).
            [
                "CREATE SEQUENCE \(schema).cache_write_order",
                """
                CREATE TABLE \(schema).cache_entries (
                    namespace text NOT NULL,
                    key text NOT NULL,
                    primary_key text NOT NULL,
                    url_key text NOT NULL,
                    vary_headers text[] NOT NULL,
                    status integer NOT NULL,
                    header_names text[] NOT NULL,
                    header_values text[] NOT NULL,
                    body bytea NOT NULL,
                    byte_count bigint NOT NULL,
                    display_url text NOT NULL,
                    stored_at timestamptz NOT NULL,
                    write_order bigint NOT NULL,
                    PRIMARY KEY (namespace, key)
                )
                """,
                "CREATE INDEX cache_entries_by_primary_key ON \(schema).cache_entries (namespace, primary_key)",
                "CREATE INDEX cache_entries_by_url ON \(schema).cache_entries (namespace, url_key)",
                "CREATE INDEX cache_entries_by_write_order ON \(schema).cache_entries (namespace, write_order)",
            ],
            // 4: rate-limit budgets shared by a fleet, and the statement that leases permits.
            rateLimits(in: schema),
        ]
    }

    /// The advisory lock name migrations of `schema` take turns on.
    static func lockName(_ schema: String) -> String { "httpcore-migrate/\(schema)" }
}
