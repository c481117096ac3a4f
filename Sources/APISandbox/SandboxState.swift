public import Foundation
import NIOConcurrencyHelpers

/// What the sandbox has seen since it started or was last reset.
///
/// Tests read these to prove things a response cannot show, such as how many attempts a retry
/// policy really made or that a retried write was applied only once.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct SandboxCounters: Sendable, Hashable, Codable {
    /// Requests received, excluding the control routes (`/_test/counters`, `/_test/reset`,
    /// `/_test/script/{name}/configure`), so inspecting the sandbox does not disturb the count.
    public var totalRequests: Int
    /// The same requests keyed by path, without the query string.
    public var requestsByPath: [String: Int]
    /// Every `POST /_test/writes` received, including replays and conflicts.
    public var writesReceived: Int
    /// Writes that took effect.
    public var writesApplied: Int
    /// Writes that took effect, per `Idempotency-Key`; a value above 1 is a duplicated write.
    public var writesAppliedByKey: [String: Int]
    /// Writes received, per `Idempotency-Key`, whether applied or not.
    public var writeAttemptsByKey: [String: Int]

    /// Creates counters; the defaults are all zero, as after a reset.
    public init(
        totalRequests: Int = 0,
        requestsByPath: [String: Int] = [:],
        writesReceived: Int = 0,
        writesApplied: Int = 0,
        writesAppliedByKey: [String: Int] = [:],
        writeAttemptsByKey: [String: Int] = [:]
    ) {
        self.totalRequests = totalRequests
        self.requestsByPath = requestsByPath
        self.writesReceived = writesReceived
        self.writesApplied = writesApplied
        self.writesAppliedByKey = writesAppliedByKey
        self.writeAttemptsByKey = writeAttemptsByKey
    }
}

/// What happened to a write handed to ``SandboxState/recordWrite(idempotencyKey:body:)``.
@available(macOS 14, iOS 17, tvOS 17, *)
public enum WriteOutcome: Sendable, Hashable {
    /// The write took effect and was given a new identifier.
    case applied(writeID: Int)
    /// The key was seen before with the same body, so the earlier write is reported again
    /// and nothing new takes effect.
    case replayed(writeID: Int)
    /// The key was seen before with a different body; real APIs reject this, and so does the sandbox.
    case conflict(writeID: Int)
}

/// State shared by the sandbox routes, its modules and the test that owns the sandbox.
///
/// Access is synchronous and guarded by a lock rather than an actor so a test can read counters or
/// install a script without `await`, and so no request ever waits behind another one's suspension.
@available(macOS 14, iOS 17, tvOS 17, *)
public final class SandboxState: Sendable {
    private struct Write {
        var writeID: Int
        var body: [UInt8]
    }

    struct ETagResource {
        var name: String
        var version: Int
        var body: [UInt8]? = nil
        var contentType: String? = nil

        /// A strong validator that changes with every update.
        var etag: String { "\"\(name)-v\(version)\"" }
    }

    enum ConditionalUpdate {
        case updated(ETagResource)
        case preconditionFailed(ETagResource)
    }

    private struct Storage {
        var counters = SandboxCounters()
        var writesByKey: [String: Write] = [:]
        var nextWriteID = 1
        var scripts: [String: (steps: [ScriptStep], next: Int)] = [:]
        var resources: [String: ETagResource] = [:]
        var faults: FaultInjection
        var faultSequenceIndex = 0
        var random: SplitMix64

        init(faults: FaultInjection) {
            self.faults = faults
            self.random = SplitMix64(seed: faults.seed)
        }
    }

    private let storage: NIOLockedValueBox<Storage>
    private let holds = Holds()
    private let initialFaults: FaultInjection
    /// Whether repeated idempotency keys are deduplicated; fixed for the sandbox's lifetime.
    public let honoursIdempotencyKeys: Bool
    private let secondOriginURL = NIOLockedValueBox<URL?>(nil)

    /// Where the sandbox's second origin listens (`http://127.0.0.1:PORT`), once it runs; `nil`
    /// when no module registered routes there (see ``SandboxModule/registerSecondOrigin(on:state:)``).
    public internal(set) var secondOrigin: URL? {
        get { secondOriginURL.withLockedValue { $0 } }
        set { secondOriginURL.withLockedValue { $0 = newValue } }
    }

    init(configuration: SandboxConfiguration) {
        self.storage = NIOLockedValueBox(Storage(faults: configuration.faults))
        self.initialFaults = configuration.faults
        self.honoursIdempotencyKeys = configuration.honoursIdempotencyKeys
    }

    /// A snapshot of the counters.
    public func counters() -> SandboxCounters {
        storage.withLockedValue { $0.counters }
    }

    /// Forgets counters, writes, scripts, ETag resources and released holds, and restores the
    /// configured fault plan with a freshly seeded generator, so one sandbox can serve several
    /// independent tests. Requests waiting on a hold keep waiting.
    public func reset() {
        let faults = initialFaults
        storage.withLockedValue { $0 = Storage(faults: faults) }
        holds.forgetReleases()
    }

    /// Releases the hold `name`: requests waiting on it go on, and later ones pass straight through.
    ///
    /// Holds replace fixed delays in tests that show a client gave up before the server answered;
    /// see ``waitForRelease(of:)``.
    public func release(_ name: String) {
        holds.release(name)
    }

    /// Waits until the test releases the hold `name` (see ``release(_:)``), or two minutes have
    /// passed, or the sandbox stops. Modules use this to keep an answer, or the rest of a body,
    /// back for exactly as long as a test needs.
    ///
    /// - Throws: `CancellationError` when the request's task is cancelled while it waits.
    public func waitForRelease(of name: String) async throws {
        try await holds.wait(for: name, atMost: Self.longestHold)
    }

    /// Returns once `count` requests wait on the hold `name` (see ``waitForRelease(of:)``), so a
    /// test can act on a request it knows has reached the server, or once the sandbox has stopped.
    ///
    /// A released hold keeps nobody waiting: wait only on holds not yet released.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled while it waits.
    public func waitUntilWaiting(onHold name: String, count: Int = 1) async throws {
        try await holds.waitUntilWaiting(on: name, count: count)
    }

    /// How long a hold lasts when nobody releases it: the cap on every delay, for the same reason.
    static let longestHold = Duration.milliseconds(TestRoutes.maxDelayMilliseconds)

    /// Releases every hold for good; called as the sandbox stops, so no held request delays it.
    func releaseAllHolds() {
        holds.close()
    }

    /// Installs or replaces the script for `/_test/script/{name}`; an empty list removes it.
    public func script(_ name: String, _ steps: [ScriptStep]) {
        storage.withLockedValue { storage in
            storage.scripts[name] = steps.isEmpty ? nil : (steps, 0)
        }
    }

    /// Takes the next step of a script, repeating the last one once the script is exhausted;
    /// `nil` if no script has that name. Modules can use this to script their own routes.
    public func nextScriptStep(_ name: String) -> ScriptStep? {
        storage.withLockedValue { storage in
            guard let script = storage.scripts[name], let last = script.steps.last else { return nil }
            guard script.next < script.steps.count else { return last }
            storage.scripts[name]?.next += 1
            return script.steps[script.next]
        }
    }

    /// Replaces the fault plan and reseeds the generator, so a test can turn faults on or off
    /// while the sandbox is running.
    public func setFaults(_ faults: FaultInjection) {
        storage.withLockedValue { storage in
            storage.faults = faults
            storage.faultSequenceIndex = 0
            storage.random = SplitMix64(seed: faults.seed)
        }
    }

    /// Records a write and decides whether it takes effect.
    ///
    /// A write without a key always takes effect. With a key, what happens depends on
    /// ``honoursIdempotencyKeys``: an honouring sandbox applies each key once and reports later
    /// attempts as ``WriteOutcome/replayed(writeID:)`` (same body) or ``WriteOutcome/conflict(writeID:)``
    /// (different body); a non-honouring one applies every attempt.
    public func recordWrite(idempotencyKey: String?, body: [UInt8]) -> WriteOutcome {
        let honours = honoursIdempotencyKeys
        return storage.withLockedValue { storage in
            storage.counters.writesReceived += 1
            if let key = idempotencyKey {
                storage.counters.writeAttemptsByKey[key, default: 0] += 1
                if honours, let earlier = storage.writesByKey[key] {
                    return earlier.body == body
                        ? .replayed(writeID: earlier.writeID) : .conflict(writeID: earlier.writeID)
                }
            }
            let writeID = storage.nextWriteID
            storage.nextWriteID += 1
            storage.counters.writesApplied += 1
            if let key = idempotencyKey {
                storage.counters.writesAppliedByKey[key, default: 0] += 1
                storage.writesByKey[key] = Write(writeID: writeID, body: body)
            }
            return .applied(writeID: writeID)
        }
    }

    func countRequest(path: String) {
        storage.withLockedValue { storage in
            storage.counters.totalRequests += 1
            storage.counters.requestsByPath[path, default: 0] += 1
        }
    }

    func nextFault(path: String) -> SandboxFault? {
        storage.withLockedValue { storage in
            guard storage.faults.applies(to: path) else { return nil }
            if storage.faultSequenceIndex < storage.faults.sequence.count {
                defer { storage.faultSequenceIndex += 1 }
                return storage.faults.sequence[storage.faultSequenceIndex]
            }
            guard !storage.faults.rules.isEmpty else { return nil }
            let draw = storage.random.nextUnitInterval()
            var cumulative = 0.0
            for rule in storage.faults.rules {
                cumulative += max(0, rule.probability)
                if draw < cumulative {
                    return rule.fault
                }
            }
            return nil
        }
    }

    func resource(_ name: String) -> ETagResource {
        storage.withLockedValue { storage in
            if let resource = storage.resources[name] {
                return resource
            }
            let resource = ETagResource(name: name, version: 1)
            storage.resources[name] = resource
            return resource
        }
    }

    /// Replaces a resource unless `ifMatch` names none of its current tags; checked under the lock
    /// so two concurrent conditional updates cannot both succeed.
    func updateResource(
        _ name: String,
        body: [UInt8]?,
        contentType: String?,
        ifMatch: [String]?
    ) -> ConditionalUpdate {
        storage.withLockedValue { storage in
            let current = storage.resources[name] ?? ETagResource(name: name, version: 1)
            if let ifMatch, !ifMatch.contains("*"), !ifMatch.contains(current.etag) {
                return .preconditionFailed(current)
            }
            let resource = ETagResource(
                name: name,
                version: current.version + 1,
                body: body,
                contentType: contentType
            )
            storage.resources[name] = resource
            return .updated(resource)
        }
    }
}
