import APISandbox
import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import MarkbookSandbox
import Testing

/// The pieces the SDK soak relies on, each shown able to fail on its own: the sandboxes'
/// inspection APIs, the Basecamp retry settings, and the audit itself.
@Suite("Soak support")
struct SoakSupportTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Markbook sandbox: students(markbookKey:) lists every student once; a repeated create is counted as refused")
    func markbookInspection() async throws {
        let module = MarkbookSandboxModule()
        try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [module])) { sandbox in
            try await checkMarkbook(module, sandbox)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    private func checkMarkbook(_ module: MarkbookSandboxModule, _ sandbox: Sandbox) async throws {
        let account = MarkbookSandboxModule.Account.sandbox
        let client = try MarkbookClient(
            apiKey: account.apiKey,
            username: account.username,
            password: account.password,
            baseURL: sandbox.baseURL.appending(path: MarkbookSandboxModule.defaultBasePath),
            transport: URLSessionTransport()
        )
        let seeded = module.students(markbookKey: 1_000_003)
        #expect(seeded.map(\.key) == [5013, 5014, 5015])
        #expect(module.students(markbookKey: 42).isEmpty)

        func create() async throws -> Int {
            try await client.createStudent(
                markbookKey: 1_000_003,
                sid: "X-1",
                familyName: "Marker",
                givenName: "Ann",
                preferredName: "",
                gender: .female,
                classKey: 3004
            )
        }
        let key = try await create()
        let repeated = await #expect(throws: APIError.self) { try await create() }
        #expect(repeated?.code == .validation)

        let students = module.students(markbookKey: 1_000_003)
        #expect(students.count == 4)
        #expect(students.filter { $0.familyName == "Marker" }.map(\.key) == [key])
        #expect(students.last?.sid == "X-1")
        #expect(module.counters().refusalsByAction == ["createstudent": 1])
        #expect(module.counters().appliedWritesByAction == ["createstudent": 1])
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Basecamp sandbox: todos() shows what the account holds, and nothing before it is mounted")
    func basecampInspection() async throws {
        let module = BasecampSandboxModule()
        #expect(module.todos().isEmpty)
        try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [module])) { sandbox in
            try await checkBasecamp(module, sandbox)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    private func checkBasecamp(_ module: BasecampSandboxModule, _ sandbox: Sandbox) async throws {
        let seeded = module.todos()
        #expect(!seeded.isEmpty)
        let client = try BasecampClient(
            accessToken: "inspection-token",
            userAgent: "SoakSupportTests (tests@example.com)",
            config: BasecampConfig(baseURL: sandbox.baseURL.appending(path: BasecampSandboxModule.defaultBasePath)),
            transport: URLSessionTransport()
        )
        let todos = try client.forAccount(BasecampSandboxModule.defaultAccountID).todos
        let list = Int64(BasecampSandboxSeed.launchChecklistTodolistID)
        let created = try await todos.create(todolistID: list, CreateTodoRequest(content: "inspect me"))
        try await todos.complete(todoID: created.id)

        let now = module.todos()
        #expect(now.count == seeded.count + 1)
        let record = try #require(now.first { $0.title == "inspect me" })
        #expect(record.id == Int(created.id))
        #expect(record.parentID == Int(list))
        #expect(record.completed)
        #expect(record.status == "active")
    }

    @Test(
        "BasecampConfig.retryPolicy replaces the Spec's waits; retryBudget limits retries",
        arguments: [
            // No override: the Spec's 1 s, then 2 s (plus up to 100 ms of jitter).
            (nil, RetryBudget(), 3, [1.0, 2.0]),
            (RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(10), jitter: .none), RetryBudget(), 3, [0.01, 0.02]),
            // A spent budget: the first 503 is the answer.
            (
                RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(10)), RetryBudget(ratio: 0, minimumRetries: 0), 1,
                []
            ),
        ] as [(RetryPolicy?, RetryBudget, Int, [Double])]
    )
    func basecampRetrySettings(policy: RetryPolicy?, budget: RetryBudget, attempts: Int, waits: [Double]) async {
        let transport = ScriptedTransport([.status(503), .status(503), .status(204)])
        let clock = TestClock()
        var failure: APIError?
        do {
            let client = try BasecampClient(
                accessToken: "retry-token",
                userAgent: "SoakSupportTests (tests@example.com)",
                config: BasecampConfig(retryPolicy: policy, retryBudget: budget),
                transport: transport,
                timeSource: clock
            )
            try await client.forAccount("999999999").todos.complete(todoID: 1)
        } catch {
            failure = error as? APIError
            #expect(failure != nil, "untyped error \(error)")
        }
        #expect(transport.requests.count == attempts)
        #expect(clock.sleeps.count == waits.count)
        for (slept, expected) in zip(clock.sleeps, waits) {
            let seconds = Double(slept.components.seconds) + Double(slept.components.attoseconds) / 1e18
            #expect(seconds >= expected && seconds <= expected + 0.1, "slept \(slept), expected \(expected) s")
        }
        // Three attempts reach the 204; one stops at the first 503.
        #expect(failure?.httpStatus == (attempts == 3 ? nil : 503))
    }

    @Test("The SDK soak's audit reports a doubled create, a lost write, a stale value and a wrong error code")
    func auditCanFail() {
        typealias Soak = ChaosSoakTests.SDKSoak
        let start = ContinuousClock.now
        func outcome(
            _ index: Int,
            _ kind: Soak.Kind,
            target: Int = 0,
            value: String = "",
            at offset: Int
        ) -> Soak.Outcome {
            var outcome = Soak.Outcome(index: index, kind: kind, started: start + .seconds(offset))
            outcome.ended = start + .seconds(offset + 1)
            outcome.target = target
            outcome.value = value
            return outcome
        }
        let fixture = Soak.Fixture(
            slots: [Soak.ResultSlot(studentKey: 5001, sid: "100234", taskKey: 4001, taskName: "Algebra test")],
            baseTodoIDs: [10],
            baseListID: 1,
            createsListID: 2
        )
        let base = SandboxRecording(id: 10, type: "Todo", projectID: 1, parentID: 1, title: "base-0")
        func todo(_ id: Int, _ content: String) -> SandboxRecording {
            SandboxRecording(id: id, type: "Todo", projectID: 1, parentID: 2, title: content)
        }
        var create = outcome(0, .createTodo, value: "op-0", at: 0)
        create.createdID = 11
        let write = outcome(1, .putResult, target: 0, value: "1.1", at: 0)
        let laterWrite = outcome(2, .putResult, target: 0, value: "2.2", at: 5)
        var failedRead = outcome(3, .readMarkbook, at: 0)
        failedRead.error = .ambiguous(APIError.Details(message: "lost"))
        let update = outcome(4, .updateTodo, target: 10, value: "upd-4", at: 0)

        let clean = Soak.SandboxView(
            initialResults: ["40"],
            finalResults: ["2.2"],
            studentsBefore: [],
            todosBefore: [10: base],
            todos: [Soak.SandboxView.updated(base, "upd-4"), todo(11, "op-0")]
        )
        let cleanReport = Soak.audit([create, write, laterWrite, update], clean, fixture: fixture)
        #expect(cleanReport.counts.problems.isEmpty)

        var broken = clean
        broken.todos.append(todo(12, "op-0"))
        broken.finalResults = ["1.1"]
        broken.todos[0] = base
        broken.refusals = ["createstudent": 1]
        let report = Soak.audit([create, write, laterWrite, update, failedRead], broken, fixture: fixture)
        #expect(report.appliedTwice == 1)
        #expect(report.counts.problems.contains("to-do op-0 created 2 times"))
        #expect(report.counts.problems.contains { $0.hasPrefix("op 0 createTodo: succeeded with key 11") })
        #expect(report.counts.problems.contains { $0.contains("holds 1.1 from op 1, but op 2 succeeded after it") })
        #expect(report.counts.problems.contains { $0.contains("still holds its first value although op 4 succeeded") })
        #expect(report.counts.problems.contains("op 3 readMarkbook: ambiguous on an idempotent call"))
        #expect(report.counts.problems.contains("Markbook refused 1 createstudent request(s)"))
        let summary = report.summary(elapsed: .zero, requests: 0, attempts: "")
        #expect(summary.hasSuffix("problems: 6"))
        #expect(summary.contains("[soak] idempotent: 3/4 = 75.0000% (failed: readMarkbook/ambiguous=1)"))
    }
}

extension ChaosSoakTests.SDKSoak.SandboxView {
    /// `todo` with new content, as a successful replace leaves it.
    static func updated(
        _ todo: SandboxRecording,
        _ content: String
    ) -> SandboxRecording {
        var todo = todo
        todo.title = content
        return todo
    }
}
