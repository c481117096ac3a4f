import APISandbox
import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient
import Testing

/// Chaos soaks: many mixed calls through shared clients while the sandbox breaks 20% of
/// requests, then an audit of every call against what the sandbox itself recorded.
///
/// Two soaks run one after the other (never side by side, so neither slows the other):
/// - ``SDKSoak`` drives the real `MarkbookClient` and `BasecampClient` against
///   `MarkbookSandboxModule` and `BasecampSandboxModule` mounted in one sandbox.
/// - ``KeyedCreateSoak`` drives HTTPCore's `Client` against a small generic API. It stays
///   because neither SDK sends an `Idempotency-Key` (Markbook's API honours none, and
///   Basecamp's documents none), so it is the only soak of keyed creates: writes that are
///   safe to retry after a lost answer because the server deduplicates them.
///
/// `swift test` runs a short version (`SOAK_OPERATIONS`, default 400 each); `Scripts/soak.sh`
/// runs 10,000 each. The sandbox is real (loopback sockets, real resets and truncations), the
/// transport is AsyncHTTPClient, and the waits are real but short (tens of milliseconds, 1 s for
/// a 429). With `SOAK_REPORT` set, each soak appends its summary to that file.
@Suite("Chaos soak", .serialized)
struct ChaosSoakTests {
    static var operations: Int {
        ProcessInfo.processInfo.environment["SOAK_OPERATIONS"].flatMap(Int.init) ?? 400
    }
    static let concurrency = 16
    static let seed: UInt64 = 0x50A4_2026

    /// 20% of the requests under `pathPrefixes` are faulted, spread over every kind the sandbox
    /// can inject.
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func faults(pathPrefixes: [String]) -> FaultInjection {
        FaultInjection(
            rules: [
                .init(.serviceUnavailable, probability: 0.04),
                .init(.tooManyRequests(retryAfterSeconds: 1), probability: 0.02),
                .init(.slowResponse(milliseconds: 150), probability: 0.03),
                .init(.connection(.closeBeforeResponse), probability: 0.03),
                .init(.connection(.resetConnection), probability: 0.03),
                .init(.connection(.dropResponse), probability: 0.03),
                .init(.connection(.truncatedBody), probability: 0.02),
            ],
            seed: seed,
            pathPrefixes: pathPrefixes
        )
    }

    /// Short waits so thousands of retries fit in minutes. Eight attempts: a call fails only when
    /// every attempt draws a fault (0.2^8 ≈ 2.6e-6), so across the ~570 idempotent calls of the
    /// two soaks a lost call points to a defect rather than bad luck.
    static let retryPolicy = RetryPolicy(
        maxAttempts: 8,
        baseDelay: .milliseconds(10),
        maxDelay: .milliseconds(100),
        jitter: .additive(max: .milliseconds(10)),
        maxRetryAfter: .seconds(2)
    )

    /// A budget wide enough for a 20% fault rate. The default (20% extra load) is meant to stop
    /// retry storms against a failing server, which is exactly what this run simulates on purpose.
    static let retryBudget = RetryBudget(ratio: 1.0)

    /// Runs `body` with a sandbox playing `modules` and a new AsyncHTTPClient transport, then shuts
    /// the transport down and stops the sandbox whether `body` returns or throws (an HTTP client
    /// left running aborts the process when it is released).
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func withSandboxAndTransport<Result>(
        modules: [any SandboxModule],
        _ body: (Sandbox, AsyncHTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: modules)) { sandbox in
            try await withAsyncHTTPClientTransport { try await body(sandbox, $0) }
        }
    }

    /// Fails the test on every problem the audit found (the first 20 listed one by one) and on an
    /// idempotent success rate under 99.9%.
    static func expectClean<Kind>(_ counts: SoakCounts<Kind>, sourceLocation: SourceLocation = #_sourceLocation) {
        let (problems, idempotentSuccessRate) = (counts.problems, counts.idempotentSuccessRate)
        for problem in problems.prefix(20) {
            Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
        }
        #expect(problems.isEmpty, "\(problems.count) problem(s)", sourceLocation: sourceLocation)
        #expect(
            idempotentSuccessRate >= 0.999,
            "idempotent success \(idempotentSuccessRate)",
            sourceLocation: sourceLocation
        )
    }

    /// Runs `perform` for every index in `0..<count`, `concurrency` at a time, and returns what
    /// each call reported, in completion order.
    static func runConcurrently<Outcome: Sendable>(
        count: Int,
        _ perform: @escaping @Sendable (Int) async -> Outcome
    ) async -> [Outcome] {
        await withTaskGroup(of: Outcome.self, returning: [Outcome].self) { group in
            var next = 0
            var results: [Outcome] = []
            results.reserveCapacity(count)
            while next < min(concurrency, count) {
                let index = next
                group.addTask { await perform(index) }
                next += 1
            }
            while let outcome = await group.next() {
                results.append(outcome)
                if next < count {
                    let index = next
                    group.addTask { await perform(index) }
                    next += 1
                }
            }
            return results
        }
    }

    /// Prints `summary` and appends it to `SOAK_REPORT` when set, so `Scripts/soak.sh` sees
    /// both soaks' figures in one file.
    static func publish(_ summary: String) throws {
        print(summary)
        guard let path = ProcessInfo.processInfo.environment["SOAK_REPORT"] else { return }
        let url = URL(fileURLWithPath: path)
        let data = Data((summary + "\n").utf8)
        guard let handle = try? FileHandle(forWritingTo: url) else {
            try data.write(to: url)
            return
        }
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
    }

    /// The code a failed call must carry, given what went wrong; `nil` when it is right.
    static func checkCode(_ error: APIError, isIdempotent: Bool) -> String? {
        switch error.details.httpStatus {
        case 429?:
            return error.code == .rateLimit ? nil : "HTTP 429 reported as \(error.code)"
        case 503?:
            return error.code == .apiError || error.code == .network
                ? nil : "HTTP 503 reported as \(error.code)"
        case let status?:
            return "unexpected HTTP \(status) (\(error.code)): \(error.message)"
        case nil:
            switch error.code {
            case .network: return nil
            case .ambiguous: return isIdempotent ? "ambiguous on an idempotent call" : nil
            default: return "unexpected \(error.code): \(error.message)"
            }
        }
    }

    /// "12.3456%" for a rate from 0 to 1.
    static func percent(_ rate: Double) -> String {
        String(format: "%.4f%%", rate * 100)
    }
}

/// Counts every attempt the clients made, by how it ended, and every retry they scheduled, so
/// the summary shows the faults the clients really met.
final class AttemptTally: Hooks {
    private struct Counts {
        var byOutcome: [String: Int] = [:]
        var retries = 0
    }

    private let counts = Locked(Counts())

    func requestEnded(_ event: RequestEndEvent) {
        let outcome = event.status.map(String.init) ?? event.error?.code.rawValue ?? "other"
        counts.withLock { $0.byOutcome[outcome, default: 0] += 1 }
    }

    func retryScheduled(_ event: RetryEvent) {
        counts.withLock { $0.retries += 1 }
    }

    /// Forgets what was counted so far, so set-up calls made before the faults are left out.
    func reset() {
        counts.withLock { $0 = Counts() }
    }

    /// "200=9000 503=400 network=300 …; retries=700".
    var summary: String {
        counts.withLock { counts -> String in
            let outcomes = counts.byOutcome.keys.sorted().map { "\($0)=\(counts.byOutcome[$0, default: 0])" }
            return outcomes.joined(separator: " ") + "; retries=\(counts.retries)"
        }
    }
}

/// What every soak's audit counts, whatever its operations are.
struct SoakCounts<Kind: Hashable & CaseIterable & RawRepresentable<String>> {
    var problems: [String] = []
    var succeeded: [Kind: Int] = [:]
    var failedByCode: [String: Int] = [:]
    /// Failed idempotent calls by kind and code, e.g. `listTodos/network`.
    var idempotentFailures: [String: Int] = [:]
    var idempotentCalls = 0
    var idempotentSucceeded = 0
    /// Ambiguous failures whose write the server had applied.
    var ambiguousApplied = 0
    /// Every operation the run made.
    var total = 0

    var idempotentSuccessRate: Double {
        idempotentCalls == 0 ? 1 : Double(idempotentSucceeded) / Double(idempotentCalls)
    }

    /// " (failed: listTodos/network=1)", or nothing when every idempotent call succeeded.
    private var idempotentFailureList: String {
        guard !idempotentFailures.isEmpty else { return "" }
        let list = idempotentFailures.keys.sorted().map { "\($0)=\(idempotentFailures[$0, default: 0])" }
        return " (failed: \(list.joined(separator: " ")))"
    }

    /// The report lines every soak prints, from successes by kind to the idempotent success
    /// rate and the idempotent calls that failed.
    func summaryLines(attempts: String) -> String {
        let kinds = Kind.allCases.map { "\($0.rawValue)=\(succeeded[$0, default: 0])" }.joined(separator: " ")
        let codes = failedByCode.keys.sorted().map { "\($0)=\(failedByCode[$0, default: 0])" }
            .joined(separator: " ")
        return """
            [soak] succeeded: \(kinds)
            [soak] failed by code: \(codes.isEmpty ? "none" : codes)
            [soak] attempts by outcome: \(attempts)
            [soak] idempotent: \(idempotentSucceeded)/\(idempotentCalls) = \
            \(ChaosSoakTests.percent(idempotentSuccessRate))\(idempotentFailureList)
            """
    }
}
