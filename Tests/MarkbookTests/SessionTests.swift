import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import MarkbookSandbox
import Testing

@Suite("Session: login, renewal, single flight, re-login")
struct SessionTests {
    /// A client answered in-process by the sandbox's logic, both on `clock`.
    @available(macOS 14, iOS 17, tvOS 17, *)
    private func setUp(
        clock: TestClock = TestClock(),
        hooks: (any Hooks)? = nil,
        before: (@Sendable (ScriptedTransport.RecordedRequest) async -> Void)? = nil
    ) throws -> (MarkbookClient, MarkbookSandboxModule, ScriptedTransport) {
        let module = MarkbookSandboxModule(account: TestAccount.account, now: { clock.now() })
        let transport = ScriptedTransport(clock: clock, handler: sandboxHandler(module, before: before))
        return (try scriptedClient(transport, clock: clock, hooks: hooks), module, transport)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The first call logs in; later calls reuse the session")
    func loginOnFirstCall() async throws {
        let recorder = EventRecorder()
        let (client, module, transport) = try setUp(hooks: recorder)
        #expect(transport.requests.isEmpty, "creating the client sends nothing")
        _ = try await client.markbookList()
        _ = try await client.userList()
        #expect(module.counters().logins == 1)
        #expect(transport.requests.count == 3)
        #expect(recorder.authEvents.map(\.kind) == [.loggedIn])
        #expect(client.schoolName == "Sandbox Secondary College")
        Leaks.expectNone(in: recorder.transcript, sessions: module.issuedSessionValues())
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Renewal happens at 19 minutes, not a second earlier, so the server never sees a stale session")
    func renewalAtNineteenMinutes() async throws {
        let clock = TestClock()
        let recorder = EventRecorder()
        let (client, module, _) = try setUp(clock: clock, hooks: recorder)
        _ = try await client.markbookList()
        clock.advance(by: .seconds(19 * 60 - 1))
        _ = try await client.markbookList()
        #expect(module.counters().logins == 1)
        clock.advance(by: .seconds(1))
        _ = try await client.markbookList()
        #expect(module.counters().logins == 2)
        #expect(recorder.authEvents.map(\.kind) == [.loggedIn, .renewed])
        #expect(recorder.authEvents.last?.trigger == .expiry)
        #expect(module.counters().rejectedSessions == 0)
        // A whole school day of calls every 5 minutes: a renewal every 19 minutes, never a rejection.
        for _ in 0..<96 {
            clock.advance(by: .seconds(5 * 60))
            _ = try await client.userList()
        }
        #expect(module.counters().rejectedSessions == 0)
        // The session from minute 19 is 20 minutes old at every fourth call: 480 / 20 renewals.
        #expect(module.counters().logins == 2 + 24)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "50 concurrent calls at the renewal moment → exactly one login, every call on the new session",
        .timeLimit(.minutes(10))
    )
    func concurrentRenewal() async throws {
        let clock = TestClock()
        // Logins are slow (they yield many times) so the 50 calls really overlap with it.
        let (client, module, transport) = try setUp(clock: clock) { request in
            if request.url.path.hasSuffix("authenticate.lc") { for _ in 0..<500 { await Task.yield() } }
        }
        _ = try await client.markbookList()
        clock.advance(by: .seconds(19 * 60))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        _ = try await client.getMarkbook(key: 1_000_001)
                    } else {
                        try await client.putOliviaAlgebraResult("44")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(module.counters().logins == 2)
        #expect(module.counters().rejectedSessions == 0)
        #expect(transport.requests.count == 2 + 1 + 50)
        let renewed = transport.requests.suffix(50).map { item in
            item.queryItems.first { $0.name == "sessiontoken" }?.value ?? ""
        }
        #expect(Set(renewed).count == 1, "all 50 calls carry the same (new) session")
        #expect(module.counters().appliedWritesByAction["putstudentresult"] == 25)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("50 concurrent first calls → one login", .timeLimit(.minutes(10)))
    func concurrentFirstUse() async throws {
        let (client, module, _) = try setUp { request in
            if request.url.path.hasSuffix("authenticate.lc") { for _ in 0..<500 { await Task.yield() } }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 { group.addTask { _ = try await client.markbookList() } }
            try await group.waitForAll()
        }
        #expect(module.counters().logins == 1)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An invalid session (server restart) → one re-login and a replay; a write is applied once")
    func reloginOnce() async throws {
        let recorder = EventRecorder()
        let (client, module, transport) = try setUp(hooks: recorder)
        _ = try await client.markbookList()
        module.expireSessions()
        let key = try await client.createAanyaPatel()
        #expect(key == 5016)
        #expect(module.counters().logins == 2)
        #expect(module.counters().rejectedSessions == 1)
        #expect(module.counters().appliedWritesByAction["createstudent"] == 1)
        #expect(transport.requests.count == 5)  // login, list, rejected create, login, replayed create
        #expect(recorder.authEvents.map(\.trigger) == [.initial, .rejected])
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Concurrent rejections after a server restart → one re-login", .timeLimit(.minutes(10)))
    func concurrentRelogin() async throws {
        let (client, module, _) = try setUp()
        _ = try await client.markbookList()
        module.expireSessions()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<30 { group.addTask { _ = try await client.userList() } }
            try await group.waitForAll()
        }
        #expect(module.counters().logins == 2)
    }

    @Test("A session still rejected after the re-login is auth_required with the raw status; one re-login only")
    func persistentRejection() async throws {
        let invalid = ScriptedTransport.Step.json(envelope("markbooklist", status: "ERROR:invalid credentials"))
        let transport = ScriptedTransport([loginOK, invalid, loginOK, invalid, loginOK])
        let client = try scriptedClient(transport)
        let error = try #require(
            await expectMarkbookError(.authRequired, sessions: scriptedSessionValues) {
                _ = try await client.markbookList()
            }
        )
        #expect(error.exitCode == 3)
        #expect(error.details.rawStatus == "ERROR:invalid credentials")
        #expect(transport.requests.count == 4)
        #expect(transport.remainingSteps == 1)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A wrong password is auth_required; later calls fail without a login until resetSession()")
    func wrongPassword() async throws {
        let clock = TestClock()
        let module = MarkbookSandboxModule(account: TestAccount.account, now: { clock.now() })
        let transport = ScriptedTransport(clock: clock, handler: sandboxHandler(module))
        var configuration = ClientConfiguration(baseURL: exampleBaseURL, timeSource: clock)
        configuration.retry = .default
        let client = try MarkbookClient(
            apiKey: TestAccount.apiKey,
            username: TestAccount.username,
            password: "not-the-password",
            configuration: configuration,
            transport: transport
        )
        let error = try #require(await expectMarkbookError(.authRequired) { _ = try await client.markbookList() })
        #expect(error.details.rawStatus == "ERROR:invalid credentials")
        await expectMarkbookError(.authRequired) { _ = try await client.userList() }
        #expect(module.counters().failedLogins == 1, "a refused login is never retried: no account lockout")
        await client.resetSession()
        await expectMarkbookError(.authRequired) { _ = try await client.userList() }
        #expect(module.counters().failedLogins == 2)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A wrong API key: one re-login, then auth_required, nothing applied")
    func wrongAPIKey() async throws {
        let module = MarkbookSandboxModule(account: TestAccount.account)
        let transport = ScriptedTransport(handler: sandboxHandler(module))
        let client = try MarkbookClient(
            apiKey: "WRONGKEY000000000000000000000000",
            username: TestAccount.username,
            password: TestAccount.password,
            configuration: ClientConfiguration(baseURL: exampleBaseURL, timeSource: TestClock()),
            transport: transport
        )
        await expectMarkbookError(.authRequired, sessions: module.issuedSessionValues()) {
            try await client.deleteStudent(markbookKey: 1_000_001, studentKey: 5001, sid: "100234")
        }
        #expect(module.counters().logins == 2)
        #expect(module.student(markbookKey: 1_000_001, studentKey: 5001)?.isDeleted == false)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Over real HTTP: the sandbox's sessions end at 20 minutes on its clock; a client on another clock re-logs in once"
    )
    func sandboxExpiryOverHTTP() async throws {
        try await SandboxHarness.run { harness in
            let clientClock = TestClock()
            let client = try harness.client(clock: clientClock)
            _ = try await client.markbookList()
            harness.clock.advance(by: .seconds(20 * 60))
            _ = try await client.markbookList()
            #expect(harness.module.counters().rejectedSessions == 1)
            #expect(harness.module.counters().logins == 2)

            // A client on the sandbox's own clock renews at 19 minutes: never rejected.
            let punctual = try harness.client()
            _ = try await punctual.userList()
            for _ in 0..<6 {
                harness.clock.advance(by: .seconds(10 * 60))
                _ = try await punctual.userList()
            }
            #expect(harness.module.counters().rejectedSessions == 1)
        }
    }
}
