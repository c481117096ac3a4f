import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Testing

extension TransportContractTests {
    @Test(
        "Cancelling just as the answer arrives ends every request, one way or the other",
        // The limit catches a hang; a whole parallel test run on two cores stretches the loop.
        .timeLimit(.minutes(10 * SanitizerRun.slowdown)),
        arguments: TransportUnderTest.allCases
    )
    func cancellationRacingTheAnswer(kind: TransportUnderTest) async throws {
        // Cancels spread over the round trip hit every stage of it; a deadlock between a
        // cancellation and the callback resuming the caller would hang this test. The tries run
        // in lanes at once because each waits about a round trip, which on two cores busy with
        // the rest of the suite is 100-300 ms.
        let lanes = 8
        let tries = 200
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let endpoint = Endpoint<Data>(.get, "_test/bytes/4096")
            // Timed warm, as the lanes will run, fastest of five: the first calls open the
            // connections, and a slow round under a busy test run would stretch every wait below.
            try await Self.sendAtOnce(lanes, endpoint, through: client)
            var roundTrip = Duration.seconds(1)
            for _ in 0..<5 {
                roundTrip = min(
                    roundTrip,
                    try await ContinuousClock().measure { try await Self.sendAtOnce(lanes, endpoint, through: client) }
                )
            }
            let window = roundTrip * 2
            let cancelled = try await withThrowingTaskGroup(of: Int.self) { group in
                for lane in 0..<lanes {
                    group.addTask {
                        var cancelled = 0
                        // Each lane takes every eighth cancel point, so every lane spans the trip.
                        for step in stride(from: lane, to: tries, by: lanes) {
                            let task = Task { try await client.send(endpoint) }
                            let delay = window * Double(step) / Double(tries)
                            // The first cancel of each lane is made at once: a canceller task
                            // can wait behind the loaded pool for longer than the whole call.
                            if step < lanes { task.cancel() }
                            // A call that ends before its cancel point ends the try: nothing is
                            // left to race.
                            let canceller = Task {
                                try await Task.sleep(for: delay)
                                task.cancel()
                            }
                            let result = await task.result
                            canceller.cancel()
                            switch result {
                            case .success(let body):
                                #expect(body.count == 4096)
                            case .failure(let error):
                                #expect(error is CancellationError, "\(error)")
                                cancelled += 1
                            }
                        }
                        return cancelled
                    }
                }
                return try await group.reduce(0, +)
            }
            // Each lane's first cancel comes before its request is even sent.
            #expect(cancelled > 0)
            // The transport is still usable afterwards.
            #expect(try await client.send(endpoint).count == 4096)
        }
    }

    /// Sends `count` copies of `endpoint` at once and waits for them all.
    private static func sendAtOnce(_ count: Int, _ endpoint: Endpoint<Data>, through client: Client) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let body = try await client.send(endpoint)
                    #expect(body.count == 4096)
                }
            }
            try await group.waitForAll()
        }
    }

    @Test(
        "A call cancelled before it starts ends with CancellationError",
        .timeLimit(.minutes(10 * SanitizerRun.slowdown)),
        arguments: TransportUnderTest.allCases
    )
    func cancelledBeforeItStarts(kind: TransportUnderTest) async throws {
        // The cancellation handler then runs at once, racing the transport's own set-up: a
        // transport that misses a task's end reported before it listened for it would wait
        // forever, and a thousand tries make that race likely to show. Ten at a time, so that a
        // full run's busy concurrency pool delays each wait once for ten calls, not ten times.
        try await withContract(kind) { sandbox, transport in
            let request = sandboxRequest(to: sandbox.port, "/_test/bytes/16")
            for _ in 0..<100 {
                let results = await withTaskGroup(of: Result<TransportResponse, any Error>.self) { group in
                    for _ in 0..<10 {
                        group.addTask {
                            withUnsafeCurrentTask { $0?.cancel() }
                            do {
                                return .success(
                                    try await transport.send(request, body: nil, options: TransportOptions())
                                )
                            } catch {
                                return .failure(error)
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                for result in results {
                    #expect(throws: CancellationError.self) { try result.get() }
                }
            }
            let after = try await transport.send(request, body: nil, options: TransportOptions())
            #expect(after.body.count == 16)
        }
    }

    @Test("Cancelling the task cancels the request with CancellationError", arguments: TransportUnderTest.allCases)
    func cancellation(kind: TransportUnderTest) async throws {
        try await withContractClient(kind) { sandbox, client in
            // Held until the sandbox stops: only the cancellation can end these.
            let slowHead = Endpoint<Data>(.get, "_test/hold/head")
            let slowBody = Endpoint<Data>(
                .get,
                "_test/bytes/4096",
                query: ["chunked": 1, "chunk_size": 1024, "hold": "rest"]
            )
            for (endpoint, hold) in [(slowHead, "head"), (slowBody, "rest")] {
                let task = Task { try await client.send(endpoint) }
                try await sandbox.waitUntilWaiting(onHold: hold)
                task.cancel()
                let result = await task.result
                #expect(throws: CancellationError.self) { try result.get() }
            }
        }
    }
}
