import APISandbox
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Holds: answers kept back until the test releases them")
struct HoldTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A held request is answered only after the release")
    func heldUntilReleased() async throws {
        try await withSandbox { sandbox in
            let url = try sandbox.url("/_test/hold/first")
            try await withThrowingTaskGroup(of: Reply?.self) { group in
                group.addTask { try await Client().send(url) }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(300))
                    return nil
                }
                // Unheld, the answer would take milliseconds; the timer must win.
                let first = try await group.next()
                #expect(first.map { $0 == nil } == true, "the request was answered before the release")
                sandbox.release("first")
                let reply = try #require(try await group.next() ?? nil)
                #expect(try isHoldAnswer(reply, "first"))
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A release that comes first is kept until reset; the HTTP release is a control route")
    func releaseBeforeRequest() async throws {
        try await withSandbox { sandbox in
            let started = ContinuousClock.now
            sandbox.release("early")
            #expect(try await Client().send(sandbox.url("/_test/hold/early")).status == 200)
            // An unreleased hold would have given out only after two minutes.
            #expect(ContinuousClock.now - started < .seconds(60))

            let release = try await Client().send(sandbox.url("/_test/hold/remote/release"), method: "POST")
            #expect(release.status == 204)
            #expect(try await Client().send(sandbox.url("/_test/hold/remote"), method: "DELETE").status == 200)
            #expect(sandbox.counters().requestsByPath["/_test/hold/remote/release"] == nil)
            #expect(sandbox.counters().requestsByPath["/_test/hold/remote"] == 1)

            sandbox.state.reset()
            #expect(try await holdsBack(sandbox, "early"), "reset kept the release")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Stopping the sandbox releases a held request, which is answered")
    func stopReleases() async throws {
        let sandbox = try await Sandbox.start()
        let url = try sandbox.url("/_test/hold/forever")
        let held = Task { try await Client().send(url) }
        // The stop must find the request in flight.
        try await sandbox.waitUntilReceived("/_test/hold/forever")
        await sandbox.stop()
        // Had the stop only waited out its grace period, the handler would have been cancelled
        // and never answered.
        #expect(try isHoldAnswer(await held.value, "forever"))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A wait ends with CancellationError when its task is cancelled")
    func cancelledWait() async throws {
        try await withSandbox { sandbox in
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
        try await withSandbox { sandbox in
            let url = try sandbox.url("/_test/bytes/4000?chunked=1&chunk_size=1024&hold=body")
            let transfer = Task { try await Client().send(url) }
            try await sandbox.waitUntilReceived("/_test/bytes/4000")
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

/// Whether a wait on the hold `name` is still waiting after 300 ms. A busy machine can only make
/// the answer "yes" more likely, so it shows that something holds, never that nothing does.
@available(macOS 14, iOS 17, tvOS 17, *)
private func holdsBack(_ sandbox: Sandbox, _ name: String) async throws -> Bool {
    try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
            try await sandbox.state.waitForRelease(of: name)
            return false
        }
        group.addTask {
            try await Task.sleep(for: .milliseconds(300))
            return true
        }
        let timerFirst = try await group.next() ?? false
        group.cancelAll()
        return timerFirst
    }
}
