import APISandbox
import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient
import HTTPTypes
import Testing

/// Chaos soak: many mixed calls through shared clients while the sandbox breaks 20% of requests,
/// then an audit of every call against the sandbox's ledger.
///
/// `swift test` runs a short version (`SOAK_OPERATIONS`, default 400); `Scripts/soak.sh` runs
/// 10,000. The sandbox is real (loopback sockets, real resets and truncations), the transport is
/// AsyncHTTPClient, and the waits are real but short (tens of milliseconds, 1 s for a 429).
@Suite("Chaos soak", .serialized)
struct ChaosSoakTests {
    enum Kind: String, CaseIterable, Sendable {
        /// POST with an `Idempotency-Key` (Basecamp-style create).
        case keyedCreate
        /// POST without a key, never retried once it may have been sent (Markbook-style create).
        case unkeyedCreate
        /// PUT of one value (result write / todo update).
        case mark
        /// Idempotent POST (todo complete).
        case complete
        /// GET one item.
        case read
        /// GET the list.
        case list

        var isIdempotent: Bool {
            switch self {
            case .keyedCreate, .unkeyedCreate: false
            case .mark, .complete, .read, .list: true
            }
        }
    }

    struct Outcome: Sendable {
        var index: Int
        var kind: Kind
        var item: Int
        var ref: String
        var error: APIError?
        var untypedError: String?
        var createdID: Int?
    }

    static var operations: Int {
        ProcessInfo.processInfo.environment["SOAK_OPERATIONS"].flatMap(Int.init) ?? 400
    }
    static let concurrency = 16
    static let seed: UInt64 = 0x50A4_2026
    static let baseItems = 64

    /// 20% of requests under /soak are faulted, spread over every kind the sandbox can inject.
    static let faults = FaultInjection(
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
        pathPrefixes: ["/soak"]
    )

    /// Short waits so thousands of retries fit in minutes; six attempts so an idempotent call
    /// survives five faults in a row (0.2^6 ≈ 0.006%); a budget wide enough for a 20% fault rate
    /// (the default 20% budget is meant to stop retry storms against a failing server, which is
    /// exactly what this run simulates on purpose).
    static func configuration(baseURL: URL, keyed: Bool) -> ClientConfiguration {
        ClientConfiguration(
            baseURL: baseURL,
            timeout: .seconds(5),
            retry: RetryPolicy(
                maxAttempts: 6,
                baseDelay: .milliseconds(10),
                maxDelay: .milliseconds(100),
                jitter: .additive(max: .milliseconds(10)),
                maxRetryAfter: .seconds(2)
            ),
            retryBudget: RetryBudget(ratio: 1.0),
            idempotencyKeyHeader: keyed ? .idempotencyKey : nil
        )
    }

    struct Created: Decodable, Sendable {
        var id: Int
        var ref: String
    }

    static func kind(for index: Int) -> Kind {
        var random = SplitMix(seed: seed &+ UInt64(index))
        let draw = random.next() % 100
        switch draw {
        case 0..<20: return .keyedCreate
        case 20..<30: return .unkeyedCreate
        case 30..<55: return .mark
        case 55..<65: return .complete
        case 65..<90: return .read
        default: return .list
        }
    }

    static func perform(
        _ index: Int,
        keyed: Client,
        plain: Client,
        items: [Int]
    ) async -> Outcome {
        let kind = kind(for: index)
        let item = items[index % items.count]
        let ref = "op-\(index)"
        var outcome = Outcome(index: index, kind: kind, item: item, ref: ref)
        let metadata = OperationMetadata(name: kind.rawValue, service: "soak", idempotent: kind.isIdempotent)
        do {
            switch kind {
            case .keyedCreate, .unkeyedCreate:
                let endpoint = Endpoint<Created>(
                    .post,
                    "soak/items",
                    body: .json(["ref": JSONValue.string(ref)]),
                    operation: metadata
                )
                let created = try await (kind == .keyedCreate ? keyed : plain).send(endpoint)
                outcome.createdID = created.id
            case .mark:
                _ = try await keyed.send(
                    Endpoint<JSONValue>(
                        .put,
                        "soak/items/\(item)/marks/\(ref)",
                        body: .json(["value": JSONValue.integer(index)]),
                        operation: metadata
                    )
                )
            case .complete:
                _ = try await plain.send(
                    Endpoint<NoContent>(.post, "soak/items/\(item)/completion", operation: metadata)
                )
            case .read:
                _ = try await plain.send(Endpoint<JSONValue>(.get, "soak/items/\(item)", operation: metadata))
            case .list:
                _ = try await keyed.send(Endpoint<JSONValue>(.get, "soak/items", operation: metadata))
            }
        } catch let error as APIError {
            outcome.error = error
        } catch {
            outcome.untypedError = String(describing: error)
        }
        return outcome
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("faults on 20% of requests: no crash, no doubled write, state matches, idempotent calls succeed")
    func soak() async throws {
        let module = SoakModule()
        let sandbox = try await Sandbox.start(configuration: SandboxConfiguration(modules: [module]))
        let transport = AsyncHTTPClientTransport()
        let keyed = try Client(
            configuration: Self.configuration(baseURL: sandbox.baseURL, keyed: true),
            transport: transport
        )
        let plain = try Client(
            configuration: Self.configuration(baseURL: sandbox.baseURL, keyed: false),
            transport: transport
        )

        // Items to update, complete and read, made before any fault is switched on.
        var items: [Int] = []
        for index in 0..<Self.baseItems {
            let created = try await keyed.send(
                Endpoint<Created>(.post, "soak/items", body: .json(["ref": JSONValue.string("base-\(index)")]))
            )
            items.append(created.id)
        }
        sandbox.setFaults(Self.faults)

        let started = ContinuousClock.now
        let count = Self.operations
        let baseItems = items
        let outcomes = await withTaskGroup(of: Outcome.self, returning: [Outcome].self) { group in
            var next = 0
            var results: [Outcome] = []
            results.reserveCapacity(count)
            while next < min(Self.concurrency, count) {
                let index = next
                group.addTask { await Self.perform(index, keyed: keyed, plain: plain, items: baseItems) }
                next += 1
            }
            while let outcome = await group.next() {
                results.append(outcome)
                if next < count {
                    let index = next
                    group.addTask { await Self.perform(index, keyed: keyed, plain: plain, items: baseItems) }
                    next += 1
                }
            }
            return results
        }
        let elapsed = ContinuousClock.now - started
        sandbox.setFaults(.none)
        let counters = sandbox.counters()
        let ledger = module.ledger.withLock { $0 }
        try await transport.shutdown()
        await sandbox.stop()

        let report = Self.audit(outcomes: outcomes, ledger: ledger, baseItems: Set(baseItems))
        let summary = report.summary(elapsed: elapsed, requests: counters.totalRequests)
        print(summary)
        if let path = ProcessInfo.processInfo.environment["SOAK_REPORT"] {
            try Data((summary + "\n").utf8).write(to: URL(fileURLWithPath: path))
        }
        #expect(outcomes.count == count)
        for problem in report.problems.prefix(20) {
            Issue.record(Comment(rawValue: problem))
        }
        #expect(report.problems.isEmpty, "\(report.problems.count) problem(s)")
        #expect(report.idempotentSuccessRate >= 0.999, "idempotent success \(report.idempotentSuccessRate)")
    }

    struct Report {
        var problems: [String] = []
        var succeeded: [Kind: Int] = [:]
        var failedByCode: [String: Int] = [:]
        var idempotentCalls = 0
        var idempotentSucceeded = 0
        var ambiguous = 0
        var ambiguousApplied = 0
        var replays = 0
        var total = 0

        var idempotentSuccessRate: Double {
            idempotentCalls == 0 ? 1 : Double(idempotentSucceeded) / Double(idempotentCalls)
        }

        func summary(elapsed: Duration, requests: Int) -> String {
            let kinds = Kind.allCases.map { "\($0.rawValue)=\(succeeded[$0, default: 0])" }.joined(separator: " ")
            let codes = failedByCode.keys.sorted().map { "\($0)=\(failedByCode[$0, default: 0])" }
                .joined(separator: " ")
            return """
                [soak] operations=\(total) requests=\(requests) elapsed=\(elapsed) concurrency=\(ChaosSoakTests.concurrency)
                [soak] succeeded: \(kinds)
                [soak] failed by code: \(codes.isEmpty ? "none" : codes)
                [soak] idempotent: \(idempotentSucceeded)/\(idempotentCalls) = \
                \(String(format: "%.4f", idempotentSuccessRate * 100))%
                [soak] ambiguous: \(ambiguous) (\(ambiguousApplied) applied once, \(ambiguous - ambiguousApplied) not applied)
                [soak] idempotency-key replays served: \(replays); problems: \(problems.count)
                """
        }
    }

    static func audit(outcomes: [Outcome], ledger: SoakModule.Ledger, baseItems: Set<Int>) -> Report {
        var report = Report()
        report.total = outcomes.count
        report.replays = ledger.replays
        var refsByOperation: Set<String> = []
        var successfulMarks: [String: (item: Int, value: Int)] = [:]
        var failedMarks: [String: (item: Int, value: Int)] = [:]
        var completedBySuccess: Set<Int> = []
        var completedByFailure: Set<Int> = []

        // No create may ever have been applied twice.
        for (ref, applied) in ledger.appliedByRef where applied > 1 {
            report.problems.append("write \(ref) applied \(applied) times")
        }

        for outcome in outcomes {
            if let untyped = outcome.untypedError {
                report.problems.append("op \(outcome.index) \(outcome.kind): untyped error \(untyped)")
                continue
            }
            if outcome.kind.isIdempotent { report.idempotentCalls += 1 }
            let applied = ledger.appliedByRef[outcome.ref, default: 0]
            guard let error = outcome.error else {
                report.succeeded[outcome.kind, default: 0] += 1
                if outcome.kind.isIdempotent { report.idempotentSucceeded += 1 }
                switch outcome.kind {
                case .keyedCreate, .unkeyedCreate:
                    refsByOperation.insert(outcome.ref)
                    if applied != 1 || ledger.items[outcome.createdID ?? -1]?.ref != outcome.ref {
                        report.problems.append("op \(outcome.index): created \(outcome.ref) but ledger has \(applied)")
                    }
                case .mark: successfulMarks[outcome.ref] = (outcome.item, outcome.index)
                case .complete: completedBySuccess.insert(outcome.item)
                case .read, .list: break
                }
                continue
            }
            report.failedByCode[error.code.rawValue, default: 0] += 1
            if let problem = checkCode(error, kind: outcome.kind) {
                report.problems.append("op \(outcome.index) \(outcome.kind): \(problem)")
            }
            switch outcome.kind {
            case .keyedCreate, .unkeyedCreate:
                refsByOperation.insert(outcome.ref)
                if error.code == .ambiguous {
                    report.ambiguous += 1
                    report.ambiguousApplied += applied
                } else if outcome.kind == .unkeyedCreate, applied != 0 {
                    // Only `ambiguous` may hide an applied write; any other failure must mean "not applied".
                    report.problems.append("op \(outcome.index): failed with \(error.code) but applied \(applied)x")
                }
            case .mark: failedMarks[outcome.ref] = (outcome.item, outcome.index)
            case .complete: completedByFailure.insert(outcome.item)
            case .read, .list: break
            }
        }

        // The final state is exactly what the calls imply.
        for item in ledger.items.values {
            if !baseItems.contains(item.id), !refsByOperation.contains(item.ref) {
                report.problems.append("item \(item.id) (\(item.ref)) was created by no call")
            }
            for (slot, value) in item.marks {
                let expected = successfulMarks[slot] ?? failedMarks[slot]
                if expected?.item != item.id || expected?.value != value {
                    report.problems.append("item \(item.id) mark \(slot)=\(value) matches no call")
                }
            }
            if item.completed, !completedBySuccess.contains(item.id), !completedByFailure.contains(item.id) {
                report.problems.append("item \(item.id) completed by no call")
            }
        }
        for (slot, mark) in successfulMarks where ledger.items[mark.item]?.marks[slot] != mark.value {
            report.problems.append("successful mark \(slot) missing on item \(mark.item)")
        }
        for item in completedBySuccess where ledger.items[item]?.completed != true {
            report.problems.append("item \(item) completed successfully but is not completed")
        }
        return report
    }

    /// The code a failed call must carry, given what went wrong.
    static func checkCode(_ error: APIError, kind: Kind) -> String? {
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
            case .ambiguous: return kind.isIdempotent ? "ambiguous on an idempotent call" : nil
            default: return "unexpected \(error.code): \(error.message)"
            }
        }
    }
}

/// The operation mix is drawn from its own generator so it does not depend on scheduling.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
