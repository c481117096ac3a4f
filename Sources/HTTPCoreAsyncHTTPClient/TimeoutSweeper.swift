import NIOCore

/// Checks the timeouts of every request running on one event loop with a single timer.
///
/// A timer per request would be scheduled when the request starts and cancelled when it ends;
/// with many requests in flight, NIO keeps those timers in a heap that each cancellation scans,
/// and the two operations cost more than the whole timeout check. Instead a request joins the
/// sweeper's set when it starts and leaves it when it ends, and the one timer ticks only while
/// the set is not empty: a quarter of the shortest timeout in it, so a request times out between
/// one and one and a quarter timeouts after it went quiet. Sequential requests keep finding the
/// timer armed and cost no timer operation at all.
final class TimeoutSweeper: Sendable {
    private struct State {
        var active: [ObjectIdentifier: ResponseCollector] = [:]
        var timer: Scheduled<Void>?
        var nextTick = NIODeadline.distantFuture
    }

    private let state: NIOLoopBoundBox<State>

    /// The loop whose requests this sweeper watches.
    var eventLoop: any EventLoop { state.eventLoop }

    init(eventLoop: any EventLoop) {
        self.state = NIOLoopBoundBox.makeBoxSendingValue(State(), eventLoop: eventLoop)
    }

    /// Starts watching `collector`; call it on the sweeper's loop.
    func watch(_ collector: ResponseCollector, now: NIODeadline) {
        state.value.active[ObjectIdentifier(collector)] = collector
        let due = now + collector.checkInterval
        if due < state.value.nextTick {
            schedule(at: due)
        }
    }

    /// Stops watching `collector`; call it on the sweeper's loop. The timer runs on until its
    /// next tick finds nothing to watch.
    func forget(_ collector: ResponseCollector) {
        state.value.active[ObjectIdentifier(collector)] = nil
    }

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
        let now = NIODeadline.now()
        var expired: [ResponseCollector] = []
        var interval = TimeAmount.hours(1)
        for collector in state.value.active.values {
            if collector.hasTimedOut(at: now) {
                expired.append(collector)
            } else {
                interval = min(interval, collector.checkInterval)
            }
        }
        if expired.count < state.value.active.count {
            schedule(at: now + interval)
        }
        // Failing a request makes it leave the set, so the set is not being iterated here.
        for collector in expired {
            collector.timeOut()
        }
    }
}
