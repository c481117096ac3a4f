extension PostgresSchema {
    /// Migration 4: one row per rate-limit key, and the function that leases its permits.
    ///
    /// `grants` holds when each permit still counted was leased (microseconds since 1970 on the
    /// server's clock, ascending); a permit counts for `p_span_us` (the window plus the lease
    /// lifetime, see `PostgresRateLimiter`). The function reads the clock only once it holds
    /// the row, so time spent waiting for another worker's lease is never counted as spent.
    static func rateLimits(in schema: String) -> [String] {
        [
            """
            CREATE TABLE \(schema).rate_limits (
                key text PRIMARY KEY,
                grants bigint[] NOT NULL DEFAULT '{}',
                paused_until timestamptz,
                updated_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            """
            CREATE FUNCTION \(schema).rate_limit_lease(
                p_key text, p_permits bigint, p_span_us bigint, p_want bigint,
                p_return_at bigint, p_return bigint,
                OUT granted bigint, OUT lease_at bigint, OUT wait_us bigint
            ) LANGUAGE plpgsql AS $$
            DECLARE
                held bigint[];
                paused timestamptz;
                now_us bigint;
                first integer;
                returned bigint;
            BEGIN
                INSERT INTO \(schema).rate_limits (key) VALUES (p_key) ON CONFLICT (key) DO NOTHING;
                SELECT grants, paused_until INTO held, paused
                    FROM \(schema).rate_limits WHERE key = p_key FOR UPDATE;
                now_us := floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
                -- Permits of an expired lease that were never used count no longer.
                first := array_position(held, p_return_at);
                IF p_return > 0 AND first IS NOT NULL THEN
                    returned := least(p_return, (SELECT count(*) FROM unnest(held) AS g WHERE g = p_return_at));
                    held := held[:first - 1] || held[first + returned:];
                END IF;
                held := ARRAY(SELECT g FROM unnest(held) AS g WHERE g > now_us - p_span_us ORDER BY g);
                lease_at := now_us;
                IF paused > clock_timestamp() THEN
                    granted := 0;
                    wait_us := ceil(extract(epoch FROM paused - clock_timestamp()) * 1000000)::bigint;
                ELSE
                    granted := greatest(0, least(p_want, p_permits - cardinality(held)));
                    held := held || array_fill(now_us, ARRAY[granted::integer]);
                    wait_us := CASE WHEN granted > 0 THEN 0
                        ELSE held[cardinality(held) - p_permits + 1] + p_span_us - now_us END;
                END IF;
                UPDATE \(schema).rate_limits SET grants = held, updated_at = now() WHERE key = p_key;
            END
            $$
            """,
        ]
    }
}
