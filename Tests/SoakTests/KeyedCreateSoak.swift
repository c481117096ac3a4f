import APISandbox
import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient
import Testing

extension ChaosSoakTests {
    /// HTTPCore's `Client` against ``SoakModule``: creates with and without an
    /// `Idempotency-Key`, value writes, completes, reads and lists, audited against the module's
    /// ledger. Kept next to ``SDKSoak`` for the keyed creates, which no SDK sends yet.
    @Suite("Keyed and unkeyed creates on a generic API")
    struct KeyedCreateSoak {
        enum Kind: String, CaseIterable, Sendable {
            /// POST with an `Idempotency-Key` (the create an API with keys offers).
            case keyedCreate
            /// POST without a key, never retried once it may have been sent.
            case unkeyedCreate
            /// PUT of one value.
            case mark
            /// Idempotent POST.
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

        static let baseItems = 64

        static func configuration(baseURL: URL, keyed: Bool, hooks: any Hooks) -> ClientConfiguration {
            ClientConfiguration(
                baseURL: baseURL,
                timeout: .seconds(5),
                hooks: hooks,
                retry: ChaosSoakTests.retryPolicy,
                retryBudget: ChaosSoakTests.retryBudget,
                idempotencyKeyHeader: keyed ? .idempotencyKey : nil
            )
        }

        struct Created: Decodable, Sendable {
            var id: Int
            var ref: String
        }

        static func kind(for index: Int) -> Kind {
            // The mix comes from a generator of its own, so it does not depend on scheduling.
            var random = SplitMix64(seed: ChaosSoakTests.seed &+ UInt64(index))
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
            let count = ChaosSoakTests.operations
            let (report, finished) = try await ChaosSoakTests.withSandboxAndTransport(modules: [module]) {
                sandbox,
                transport in
                let tally = AttemptTally()
                let keyed = try Client(
                    configuration: Self.configuration(baseURL: sandbox.baseURL, keyed: true, hooks: tally),
                    transport: transport
                )
                let plain = try Client(
                    configuration: Self.configuration(baseURL: sandbox.baseURL, keyed: false, hooks: tally),
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
                tally.reset()
                let requestsBefore = sandbox.counters().totalRequests
                sandbox.setFaults(ChaosSoakTests.faults(pathPrefixes: ["/soak"]))

                let started = ContinuousClock.now
                let baseItems = items
                let outcomes = await ChaosSoakTests.runConcurrently(count: count) { index in
                    await Self.perform(index, keyed: keyed, plain: plain, items: baseItems)
                }
                let elapsed = ContinuousClock.now - started
                sandbox.setFaults(.none)
                let counters = sandbox.counters()
                let ledger = module.ledger.withLock { $0 }

                let report = Self.audit(outcomes: outcomes, ledger: ledger, baseItems: Set(baseItems))
                try ChaosSoakTests.publish(
                    report.summary(
                        elapsed: elapsed,
                        requests: counters.totalRequests - requestsBefore,
                        attempts: tally.summary
                    )
                )
                return (report, outcomes.count)
            }
            #expect(finished == count)
            ChaosSoakTests.expectClean(report.counts)
        }

        struct Report {
            var counts = SoakCounts<Kind>()
            var ambiguous = 0
            var replays = 0

            func summary(elapsed: Duration, requests: Int, attempts: String) -> String {
                """
                [soak] generic API, HTTPCore Client (keyed + unkeyed creates): operations=\(counts.total) \
                requests=\(requests) elapsed=\(elapsed) concurrency=\(ChaosSoakTests.concurrency)
                \(counts.summaryLines(attempts: attempts))
                [soak] ambiguous: \(ambiguous) (\(counts.ambiguousApplied) applied once, \
                \(ambiguous - counts.ambiguousApplied) not applied)
                [soak] idempotency-key replays served: \(replays); problems: \(counts.problems.count)
                """
            }
        }

        static func audit(outcomes: [Outcome], ledger: SoakModule.Ledger, baseItems: Set<Int>) -> Report {
            var report = Report()
            report.counts.total = outcomes.count
            report.replays = ledger.replays
            var refsByOperation: Set<String> = []
            var successfulMarks: [String: (item: Int, value: Int)] = [:]
            var failedMarks: [String: (item: Int, value: Int)] = [:]
            var completedBySuccess: Set<Int> = []
            var completedByFailure: Set<Int> = []

            // No create may ever have been applied twice.
            for (ref, applied) in ledger.appliedByRef where applied > 1 {
                report.counts.problems.append("write \(ref) applied \(applied) times")
            }

            for outcome in outcomes {
                if let untyped = outcome.untypedError {
                    report.counts.problems.append("op \(outcome.index) \(outcome.kind): untyped error \(untyped)")
                    continue
                }
                if outcome.kind.isIdempotent { report.counts.idempotentCalls += 1 }
                let applied = ledger.appliedByRef[outcome.ref, default: 0]
                guard let error = outcome.error else {
                    report.counts.succeeded[outcome.kind, default: 0] += 1
                    if outcome.kind.isIdempotent { report.counts.idempotentSucceeded += 1 }
                    switch outcome.kind {
                    case .keyedCreate, .unkeyedCreate:
                        refsByOperation.insert(outcome.ref)
                        if applied != 1 || ledger.items[outcome.createdID ?? -1]?.ref != outcome.ref {
                            report.counts.problems.append(
                                "op \(outcome.index): created \(outcome.ref) but ledger has \(applied)"
                            )
                        }
                    case .mark: successfulMarks[outcome.ref] = (outcome.item, outcome.index)
                    case .complete: completedBySuccess.insert(outcome.item)
                    case .read, .list: break
                    }
                    continue
                }
                report.counts.failedByCode[error.code.rawValue, default: 0] += 1
                if let problem = ChaosSoakTests.checkCode(error, isIdempotent: outcome.kind.isIdempotent) {
                    report.counts.problems.append("op \(outcome.index) \(outcome.kind): \(problem)")
                }
                switch outcome.kind {
                case .keyedCreate, .unkeyedCreate:
                    refsByOperation.insert(outcome.ref)
                    if error.code == .ambiguous {
                        report.ambiguous += 1
                        report.counts.ambiguousApplied += applied
                    } else if outcome.kind == .unkeyedCreate, applied != 0 {
                        // Only `ambiguous` may hide an applied write; any other failure must mean "not applied".
                        report.counts.problems.append(
                            "op \(outcome.index): failed with \(error.code) but applied \(applied)x"
                        )
                    }
                case .mark: failedMarks[outcome.ref] = (outcome.item, outcome.index)
                case .complete: completedByFailure.insert(outcome.item)
                case .read, .list: break
                }
            }

            // The final state is exactly what the calls imply.
            for item in ledger.items.values {
                if !baseItems.contains(item.id), !refsByOperation.contains(item.ref) {
                    report.counts.problems.append("item \(item.id) (\(item.ref)) was created by no call")
                }
                for (slot, value) in item.marks {
                    let expected = successfulMarks[slot] ?? failedMarks[slot]
                    if expected?.item != item.id || expected?.value != value {
                        report.counts.problems.append("item \(item.id) mark \(slot)=\(value) matches no call")
                    }
                }
                if item.completed, !completedBySuccess.contains(item.id), !completedByFailure.contains(item.id) {
                    report.counts.problems.append("item \(item.id) completed by no call")
                }
            }
            for (slot, mark) in successfulMarks where ledger.items[mark.item]?.marks[slot] != mark.value {
                report.counts.problems.append("successful mark \(slot) missing on item \(mark.item)")
            }
            for item in completedBySuccess where ledger.items[item]?.completed != true {
                report.counts.problems.append("item \(item) completed successfully but is not completed")
            }
            return report
        }
    }
}
