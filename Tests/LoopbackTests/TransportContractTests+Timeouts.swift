import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension TransportContractTests {
    /// 3,500 bytes, 100 every 100 ms: never idle for long, and 3.5 s in all.
    static let trickle = Endpoint<Data>(
        .get,
        "_test/bytes/3500",
        query: ["chunked": 1, "chunk_size": 100, "chunk_delay_ms": 100]
    )

    @Test("A server that sends no head in time is a network error", arguments: TransportUnderTest.allCases)
    func timeout(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport) { $0.timeout = .seconds(1) }
            let started = ContinuousClock.now
            let error = await caughtAPIError {
                _ = try await client.send(Endpoint<JSONValue>(.get, "_test/hold/head"))
            }
            #expect(error?.code == .network)
            let elapsed = ContinuousClock.now - started
            #expect(elapsed >= .milliseconds(900), "\(elapsed)")
        }
    }

    @Test("A sub-second timeout lets a prompt answer through", arguments: TransportUnderTest.allCases)
    func subSecondTimeout(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let client = try makeClient(sandbox, transport) { $0.timeout = .milliseconds(900) }
            for delay in [0, 150] {
                let started = ContinuousClock.now
                do {
                    let value = try await client.send(Endpoint<JSONValue>(.get, "_test/delay/\(delay)"))
                    #expect(value["delayedMs"]?.intValue == delay)
                } catch let error as APIError {
                    let elapsed = ContinuousClock.now - started
                    #expect(elapsed >= .milliseconds(850), "timed out after \(elapsed): \(error)")
                }
            }
        }
    }

    @Test(
        "The timeout is an idle timeout while the body streams",
        .disabled(if: SanitizerRun.isActive, "wall-clock idle-timeout test; a sanitizer's slowdown stretches the gaps"),
        arguments: TransportUnderTest.allCases
    )
    func bodyTimeout(kind: TransportUnderTest) async throws {
        // A body that keeps arriving is not idle, however long it takes in total. The gaps are a
        // thirtieth of the timeout, and the sandbox runs in a process of its own, so a full-suite
        // run that keeps this process's threads busy cannot stretch one past it. The body is kept
        // short because URLSession on Linux keeps a core busy while a body trickles in.
        try await withSandboxProcess { port in
            try await kind.withTransport { transport in
                let patient = try makeClient(URL(string: "http://127.0.0.1:\(port)"), transport) {
                    $0.timeout = .seconds(3)
                }
                let started = ContinuousClock.now
                let slow = try await patient.send(Self.trickle)
                #expect(slow.count == 3500)
                #expect(ContinuousClock.now - started > .seconds(3))
            }
        }
    }

    @Test(
        "The call's deadline ends a body that keeps arriving",
        .disabled(if: SanitizerRun.isActive, "wall-clock test; a sanitizer's slowdown stretches the trickle"),
        arguments: TransportUnderTest.allCases
    )
    func deadlineBoundsTrickle(kind: TransportUnderTest) async throws {
        // A byte every 100 ms is never idle for the 3 s timeout, and the whole body would take
        // 3.5 s: only the 1 s deadline can end the call before it is in.
        try await withSandboxProcess { port in
            try await kind.withTransport { transport in
                let client = try makeClient(URL(string: "http://127.0.0.1:\(port)"), transport) {
                    $0.timeout = .seconds(3)
                    $0.deadline = .seconds(1)
                }
                let started = ContinuousClock.now
                let error = await caughtAPIError { _ = try await client.send(Self.trickle) }
                let elapsed = ContinuousClock.now - started
                #expect(error?.code == .network)
                #expect(error?.message.contains("deadline") == true, "\(String(describing: error))")
                #expect(elapsed >= .milliseconds(900) && elapsed < .milliseconds(2500), "\(elapsed)")
            }
        }
    }

    @Test(
        "A total timeout that is over before the request starts still ends it, as timedOut",
        arguments: TransportUnderTest.allCases
    )
    func totalTimeoutAlreadyOver(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            var options = TransportOptions(timeout: .seconds(3))
            options.totalTimeout = .nanoseconds(1)
            let error = await transportError {
                _ = try await transport.send(
                    sandboxRequest(to: sandbox.port, "/_test/bytes/3500?chunked=1&chunk_size=100&chunk_delay_ms=100"),
                    body: nil,
                    options: options
                )
            }
            #expect(error?.kind == .timedOut)
        }
    }

    @Test("A body that stops arriving is a network error", arguments: TransportUnderTest.allCases)
    func stalledBody(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            // The rest of the body is held until the sandbox stops: only the timeout can end this.
            let client = try makeClient(sandbox, transport) { $0.timeout = .seconds(1) }
            let error = await caughtAPIError {
                _ = try await client.send(
                    Endpoint<Data>(
                        .get,
                        "_test/bytes/2048",
                        query: ["chunked": 1, "chunk_size": 1024, "hold": "rest"]
                    )
                )
            }
            #expect(error?.code == .network)
        }
    }
}
