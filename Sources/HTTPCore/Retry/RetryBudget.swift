/// A limit on how much retrying may add to a client's traffic, so an outage does not multiply
/// the load on a struggling server.
///
/// Over a sliding ``window``, retries may number at most ``ratio`` times the first attempts,
/// or ``minimumRetries``, whichever is larger (the floor lets a quiet client still retry).
/// When the budget is spent, a failing call ends with its last error instead of retrying.
public struct RetryBudget: Sendable, Hashable {
    /// Retries allowed per first attempt (0.2 = at most 20% extra load).
    public var ratio: Double
    /// The sliding window the counts cover.
    public var window: Duration
    /// Retries always allowed per window, however few first attempts there were.
    public var minimumRetries: Int

    /// Creates a budget; the default allows 20% extra load over 10 s, and at least 10 retries.
    public init(ratio: Double = 0.2, window: Duration = .seconds(10), minimumRetries: Int = 10) {
        self.ratio = ratio
        self.window = window
        self.minimumRetries = minimumRetries
    }
}

/// The running counts behind a ``RetryBudget``: one per client, shared by all its calls.
final class RetryBudgetLedger: Sendable {
    private static let bucketCount = 10

    private struct Bucket {
        var index: Int64 = -1
        var firstAttempts = 0
        var retries = 0
    }

    private let budget: RetryBudget
    private let bucketWidth: Double
    private let buckets = Locked([Bucket](repeating: Bucket(), count: RetryBudgetLedger.bucketCount))

    init(budget: RetryBudget) {
        self.budget = budget
        self.bucketWidth = max(budget.window.seconds / Double(Self.bucketCount), 0.001)
    }

    /// Counts a call's first attempt.
    func recordFirstAttempt(at now: Duration) {
        update(at: now) { $0.firstAttempts += 1 }
    }

    /// Takes one retry from the budget; `false` when it is spent.
    func tryWithdrawRetry(at now: Duration) -> Bool {
        let current = index(of: now)
        return buckets.withLock { buckets -> Bool in
            var firsts = 0
            var retries = 0
            for bucket in buckets where bucket.index > current - Int64(Self.bucketCount) && bucket.index <= current {
                firsts += bucket.firstAttempts
                retries += bucket.retries
            }
            let allowed = max(Double(budget.minimumRetries), budget.ratio * Double(firsts))
            guard Double(retries + 1) <= allowed else { return false }
            buckets[Self.slot(&buckets, for: current)].retries += 1
            return true
        }
    }

    private func update(at now: Duration, _ change: (inout Bucket) -> Void) {
        let current = index(of: now)
        buckets.withLock { buckets in change(&buckets[Self.slot(&buckets, for: current)]) }
    }

    private func index(of now: Duration) -> Int64 {
        let value = now.seconds / bucketWidth
        return value.isFinite ? Int64(clamping: Int(value.rounded(.down))) : 0
    }

    /// The position of the bucket for `index`, emptied first if it held an older interval.
    private static func slot(_ buckets: inout [Bucket], for index: Int64) -> Int {
        let count = Int64(bucketCount)
        let position = Int(((index % count) + count) % count)
        if buckets[position].index != index { buckets[position] = Bucket(index: index) }
        return position
    }
}
