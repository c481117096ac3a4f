import APISandbox
import Foundation
import Testing

@Suite("Holds: answers kept back until the test releases them")
struct HoldTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A held request waits at the server and is answered only after the release", .timeLimit(.minutes(10)))
    func heldUntilReleased() async throws {
        try await Sandbox.withRunning { sandbox in
            let url = try sandbox.url("/_test/hold/first")
            let answered = Flag()
            let call = Task {
                let reply = try await Client().send(url)
                await answered.set()
                return reply
            }
            try await sandbox.waitUntilWaiting(onHold: "first")
            #expect(await !answered.isSet, "the request was answered before the release")
            sandbox.release("first")
            #expect(try isHoldAnswer(await call.value, "first"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The arrival wait counts requests, and returns at once for those already waiting", .timeLimit(.minutes(10)))
    func arrivals() async throws {
        try await Sandbox.withRunning { sandbox in
            let url = try sandbox.url("/_test/hold/gate")
            let calls = (0..<3).map { _ in Task { try await Client.sendOnFreshConnection(url) } }
            try await sandbox.waitUntilWaiting(onHold: "gate", count: 3)
            try await sandbox.waitUntilWaiting(onHold: "gate")
            #expect(sandbox.counters().requestsByPath["/_test/hold/gate"] == 3)
            sandbox.release("gate")
            for call in calls { #expect(try isHoldAnswer(await call.value, "gate")) }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An arrival wait ends with CancellationError when its task is cancelled, and at once on stop")
    func cancelledArrivalWait() async throws {
        let sandbox = try await Sandbox.start()
        let cancelled = Task { try await sandbox.waitUntilWaiting(onHold: "nobody") }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        let waiting = Task { try await sandbox.waitUntilWaiting(onHold: "nobody") }
        await sandbox.stop()
        try await waiting.value
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "A release that comes first is kept until reset; the HTTP release is a control route",
        .timeLimit(.minutes(10))
    )
    func releaseBeforeRequest() async throws {
        try await Sandbox.withRunning { sandbox in
            let started = ContinuousClock.now
            sandbox.release("early")
            #expect(try await sandbox.send("/_test/hold/early").status == 200)
            // An unreleased hold would have given out only after two minutes.
            #expect(ContinuousClock.now - started < .seconds(60))

            let release = try await sandbox.send("/_test/hold/remote/release", method: "POST")
            #expect(release.status == 204)
            #expect(try await sandbox.send("/_test/hold/remote", method: "DELETE").status == 200)
            #expect(sandbox.counters().requestsByPath["/_test/hold/remote/release"] == nil)
            #expect(sandbox.counters().requestsByPath["/_test/hold/remote"] == 1)

            sandbox.state.reset()
            // Had the reset kept the release, the wait would not park and the arrival wait would
            // not return (the suite's time limit ends the test).
            let waiting = Task { try await sandbox.state.waitForRelease(of: "early") }
            try await sandbox.waitUntilWaiting(onHold: "early")
            sandbox.release("early")
            try await waiting.value
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Stopping the sandbox releases a held request, which is answered")
    func stopReleases() async throws {
        let sandbox = try await Sandbox.start()
        let url = try sandbox.url("/_test/hold/forever")
        let held = Task { try await Client().send(url) }
        // The stop must find the request in flight.
        try await sandbox.waitUntilWaiting(onHold: "forever")
        await sandbox.stop()
        // Had the stop only waited out its grace period, the handler would have been cancelled
        // and never answered.
        #expect(try isHoldAnswer(await held.value, "forever"))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A wait ends with CancellationError when its task is cancelled")
    func cancelledWait() async throws {
        try await Sandbox.withRunning { sandbox in
            let waiting = Task { try await sandbox.state.waitForRelease(of: "never") }
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            // A cancelled wait leaves nothing behind that a later release would trip over.
            let other = Task { try await sandbox.state.waitForRelease(of: "never") }
            sandbox.release("never")
            try await other.value
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A held body arrives whole, byte for byte, after the release")
    func heldBody() async throws {
        try await Sandbox.withRunning { sandbox in
            let url = try sandbox.url("/_test/bytes/4000?chunked=1&chunk_size=1024&hold=body")
            let transfer = Task { try await Client().send(url) }
            try await sandbox.waitUntilWaiting(onHold: "body")
            sandbox.release("body")
            let reply = try await transfer.value
            #expect(reply.status == 200)
            #expect(reply.body.count == 4000)
            #expect(reply.body.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset) })
        }
    }
}

/// Whether `reply` is the hold route's answer for `name`.
private func isHoldAnswer(_ reply: Reply, _ name: String) throws -> Bool {
    try reply.status == 200 && reply.json([String: String].self) == ["held": name]
}

/// Set once, read from any task.
private actor Flag {
    private(set) var isSet = false

    func set() { isSet = true }
}
