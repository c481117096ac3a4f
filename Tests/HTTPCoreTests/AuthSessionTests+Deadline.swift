import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Auth: a session login and the call's deadline")
struct AuthSessionDeadlineTests {
    @Test(
        "A call whose deadline comes during a slow first login ends then, unsent; the login goes on",
        .timeLimit(.minutes(10))
    )
    func deadlineDuringLogin() async throws {
        let (started, hold) = (Gate(), Gate())
        let api = SessionAPI(beforeLogin: {
            started.open()
            await hold.wait()
        })
        let clock = TestClock(mode: .manual)
        let transport = ScriptedTransport(clock: clock) { try await api.handle($0) }
        let client = try makeClient(transport) {
            $0.auth = SessionAPI.strategy()
            $0.timeSource = clock
            $0.deadline = .seconds(5)
        }
        let call = Task { try await client.send(Endpoint<JSONValue>(.get, "", query: ["action": "markbooklist"])) }
        await started.wait()
        try await AuthRefreshTests.requireDeadlineTimers(1, clock, orRelease: hold)

        clock.advance(by: .seconds(5))
        let error = try #require(await caughtAPIError { try await call.value })
        #expect(error.code == .network)
        #expect(error.message.contains("deadline came while the credentials were being renewed"))
        #expect(transport.requests.count == 1)

        hold.open()
        let later = try await client.send(Endpoint<JSONValue>(.get, "", query: ["action": "markbooklist"]))
        #expect(later["session"]?.intValue == 1)
        #expect(api.logins.value == 1)
    }
}
