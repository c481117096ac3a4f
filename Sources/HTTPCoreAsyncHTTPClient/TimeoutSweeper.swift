import NIOCore

/// Something a ``TimeoutSweeper`` watches: a running request, in production. Instances stay on
/// the sweeper's loop; only the type crosses into the timer's closure.
protocol TimeoutWatched: AnyObject, SendableMetatype {
    /// How long the watched work may stay quiet.
    var timeout: TimeAmount { get }
    /// Whether nothing arrived for a whole timeout before `now`.
    func hasTimedOut(at now: NIODeadline) -> Bool
    /// Ends the watched work with a timeout.
    func timeOut()
}

extension TimeoutWatched {
    /// How often the sweeper must look: a quarter of the timeout (at least a millisecond), so the
    /// work times out at most a quarter late.
    var checkInterval: TimeAmount { .nanoseconds(max(timeout.nanoseconds / 4, 1_000_000)) }
}

/// Checks the timeouts of everything running on one event loop with a single timer.
///
/// A timer per request would be scheduled when the request starts and cancelled when it ends;
/// with many requests in flight, NIO keeps those timers in a heap that each cancellation scans,
/// and the two operations cost more than the whole timeout check. Instead a request joins the
/// sweeper's set when it starts and leaves it when it ends, and the one timer ticks only while
/// the set is not empty: a quarter of the shortest timeout in it, so a request times out between
/// one and one and a quarter timeouts after it went quiet. Sequential requests keep finding the
/// timer armed and cost no timer operation at all.
///
/// Time is the loop's own (`EventLoop.now`), so a test can drive the sweeper on an embedded loop.
final class TimeoutSweeper<Watched: TimeoutWatched>: Sendable {
    private struct State {
        var active: [ObjectIdentifier: Watched] = [:]
        var timer: Scheduled<Void>?
        var nextTick = NIODeadline.distantFuture
    }

    private let state: NIOLoopBoundBox<State>

    /// The loop whose requests this sweeper watches.
    var eventLoop: any EventLoop { state.eventLoop }

    init(eventLoop: any EventLoop) {
        self.state = NIOLoopBoundBox.makeBoxSendingValue(State(), eventLoop: eventLoop)
    }

    /// Starts watching `watched`, quiet since `now`; call it on the sweeper's loop.
    func watch(_ watched: Watched, now: NIODeadline) {
        state.value.active[ObjectIdentifier(watched)] = watched
        let due = now + watched.checkInterval
        if due < state.value.nextTick {
            schedule(at: due)
        }
    }

    /// Stops watching `watched`; call it on the sweeper's loop. The timer runs on until its next
    /// tick finds nothing to watch.
    func forget(_ watched: Watched) {
        state.value.active[ObjectIdentifier(watched)] = nil
    }

    /// Whether a tick is scheduled; for tests.
    var isTicking: Bool { state.value.timer != nil }

    private func schedule(at deadline: NIODeadline) {
        state.value.timer?.cancel()
        state.value.nextTick = deadline
        state.value.timer = state.eventLoop.scheduleTask(deadline: deadline) { [self] in
            self.tick()
        }
    }

    private func tick() {
        state.value.timer = nil
        state.value.nextTick = .distantFuture
        guard !state.value.active.isEmpty else { return }
        let now = state.eventLoop.now
        var expired: [Watched] = []
        var interval = TimeAmount.hours(1)
        for watched in state.value.active.values {
            if watched.hasTimedOut(at: now) {
                expired.append(watched)
            } else {
                interval = min(interval, watched.checkInterval)
            }
        }
        if expired.count < state.value.active.count {
            schedule(at: now + interval)
        }
        // Ending a request makes it leave the set, so the set is not being iterated here.
        for watched in expired {
            watched.timeOut()
        }
    }
}
