/// Waits until `condition` holds, giving other tasks the thread meanwhile, and gives up after
/// `timeLimit` of real time.
///
/// Use it where a test waits for other tasks to reach a point (a sleeper on a ``TestClock``, a
/// request on a ``ScriptedTransport``): when a bug keeps that point from coming, the test fails
/// instead of hanging the suite, and a wait that lasts does not keep a core busy.
///
/// ```swift
/// let waiting = Task { try await client.send(endpoint) }
/// #expect(await waitUntil { transport.requests.count == 1 })
/// ```
///
/// - Parameters:
///   - timeLimit: How long to wait before giving up: a minute by default, since the whole suite
///     may be competing for the cores.
///   - condition: What to wait for; checked between yields, so keep it cheap.
/// - Returns: Whether `condition` held before the time ran out.
@discardableResult
public func waitUntil(timeLimit: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeLimit
    // Most waits end within a few scheduling turns; a longer one naps so it costs no CPU.
    var turns = 0
    while !condition() {
        guard clock.now < deadline else { return condition() }
        if turns < 1_000 {
            turns += 1
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    return true
}
