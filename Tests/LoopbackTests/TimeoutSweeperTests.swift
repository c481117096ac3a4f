import NIOCore
import NIOEmbedded
import Testing

@testable import HTTPCoreAsyncHTTPClient

/// The one-timer timeout of the AsyncHTTPClient transport, on an embedded loop whose clock only
/// moves when the test says: how late a timeout may fire is exact here, whatever the machine's
/// load, which the loopback tests can only show as "after the timeout".
@Suite("Timeout sweeper on an injected clock")
struct TimeoutSweeperTests {
    // A fresh loop and sweeper for each test: Swift Testing makes a new suite value per test.
    private let loop = EmbeddedEventLoop()
    private let sweeper: TimeoutSweeper<Probe>

    init() {
        sweeper = TimeoutSweeper(eventLoop: loop)
    }

    @Test("A quiet request times out between one and one and a quarter timeouts")
    func timesOutWithinAQuarter() {
        let probe = Probe(timeout: .seconds(1), quietSince: loop.now).watched(by: sweeper)

        loop.advanceTime(by: .milliseconds(999))
        #expect(probe.timedOutAt == nil)
        loop.advanceTime(by: .milliseconds(251))
        let after = probe.timedOutAt.map { $0 - probe.quietSince }
        #expect(after.map { $0 >= .seconds(1) && $0 <= .milliseconds(1250) } == true, "\(String(describing: after))")
    }

    @Test("Activity restarts the timeout")
    func activityRestarts() {
        let probe = Probe(timeout: .seconds(1), quietSince: loop.now).watched(by: sweeper)
        for _ in 0..<8 {
            loop.advanceTime(by: .milliseconds(600))
            probe.quietSince = loop.now
        }
        #expect(probe.timedOutAt == nil)
        loop.advanceTime(by: .milliseconds(1250))
        #expect(probe.timedOutAt != nil)
    }

    @Test("A short timeout joining a long one is checked at its own pace")
    func shortJoinsLong() {
        let patient = Probe(timeout: .seconds(60), quietSince: loop.now).watched(by: sweeper)
        loop.advanceTime(by: .milliseconds(200))
        let impatient = Probe(timeout: .seconds(1), quietSince: loop.now).watched(by: sweeper)

        // The patient request alone had the timer set 15 s out.
        loop.advanceTime(by: .milliseconds(1250))
        #expect(impatient.timedOutAt.map { $0 - impatient.quietSince <= .milliseconds(1250) } == true)
        #expect(patient.timedOutAt == nil)
        // The survivor sets the pace again, and times out in its own time.
        loop.advanceTime(by: .seconds(60))
        #expect(patient.timedOutAt.map { $0 - patient.quietSince <= .seconds(75) } == true)
    }

    @Test("Requests that end leave the sweeper, which stops ticking once nothing is left")
    func stopsWhenEmpty() {
        let ended = Probe(timeout: .seconds(1), quietSince: loop.now).watched(by: sweeper)
        let running = Probe(timeout: .seconds(2), quietSince: loop.now).watched(by: sweeper)
        sweeper.forget(ended)
        loop.advanceTime(by: .seconds(5))
        #expect(ended.timedOutAt == nil)
        #expect(running.timedOutAt != nil)
        #expect(!sweeper.isTicking)
        #expect(running.checks > 0)
    }
}

/// A watched request whose activity the test moves by hand. Like a real one, it leaves the
/// sweeper when it times out.
private final class Probe: TimeoutWatched {
    let timeout: TimeAmount
    var quietSince: NIODeadline
    /// When the sweeper found it timed out.
    private(set) var timedOutAt: NIODeadline?
    private(set) var checks = 0
    private var lastCheck: NIODeadline?
    private weak var sweeper: TimeoutSweeper<Probe>?

    init(timeout: TimeAmount, quietSince: NIODeadline) {
        self.timeout = timeout
        self.quietSince = quietSince
    }

    /// Starts `sweeper` watching this probe.
    func watched(by sweeper: TimeoutSweeper<Probe>) -> Probe {
        self.sweeper = sweeper
        sweeper.watch(self, now: quietSince)
        return self
    }

    func hasTimedOut(at now: NIODeadline) -> Bool {
        checks += 1
        lastCheck = now
        return now >= quietSince + timeout
    }

    func timeOut() {
        timedOutAt = lastCheck
        sweeper?.forget(self)
    }
}
