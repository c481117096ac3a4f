import HTTPCore

@testable import HTTPCorePostgres

/// Every lease statement several limiters made, with the database's answers: lease ids are
/// grant times on the server's clock (microseconds since 1970), so tests judge the cap by the
/// times the database recorded, not by when a busy machine let a task note the time.
final class LeaseLog: Sendable {
    /// One lease statement.
    struct Entry: Sendable {
        /// Which limiter (process) made it.
        var limiter: Int
        var key: String
        /// The unused permits it gave back.
        var returning: PermitLease?
        var answer: LeaseAnswer
    }

    private let entries = Locked<[Entry]>([])

    func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    /// The statements for `key`, in the order they answered, from the `from`th on.
    func leases(for key: String, from start: Int = 0) -> [Entry] {
        let all = entries.withLock { $0 }
        return all.dropFirst(start).filter { $0.key == key }
    }

    /// How many statements answered so far.
    var count: Int { entries.withLock { $0.count } }

    /// The grant times of the permits the database counted for `key`, ascending: every permit
    /// granted, less those given back while they still counted (returned ones were never spent).
    func countedGrants(for key: String, span: Duration) -> [Int64] {
        var grants: [Int64] = []
        for entry in leases(for: key).sorted(by: { $0.answer.lease.id < $1.answer.lease.id }) {
            if let returned = entry.returning, entry.answer.lease.id - returned.id < span.wholeMicroseconds {
                for _ in 0..<returned.count {
                    guard let index = grants.firstIndex(of: returned.id) else { break }
                    grants.remove(at: index)
                }
            }
            grants += Array(repeating: entry.answer.lease.id, count: entry.answer.lease.count)
        }
        return grants.sorted()
    }
}

/// A ledger that notes each of its lease statements in a shared ``LeaseLog``.
struct RecordingPermitLedger: PermitLedger {
    let ledger: any PermitLedger
    let limiter: Int
    let log: LeaseLog

    func lease(_ key: String, want: Int, returning: PermitLease?, clock: any TimeSource) async throws -> LeaseAnswer {
        let answer = try await ledger.lease(key, want: want, returning: returning, clock: clock)
        log.append(LeaseLog.Entry(limiter: limiter, key: key, returning: returning, answer: answer))
        return answer
    }

    func pause(_ key: String, for duration: Duration) async throws {
        try await ledger.pause(key, for: duration)
    }
}
