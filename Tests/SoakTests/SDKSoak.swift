import APISandbox
import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient
import Markbook
import MarkbookSandbox
import Testing

extension ChaosSoakTests {
    /// The real SDK clients against their real sandboxes, both mounted in one ``APISandbox/Sandbox``:
    /// Markbook reads, result writes and student creates through one shared `MarkbookClient`;
    /// Basecamp to-do creates, completes, updates and lists through one shared `BasecampClient`;
    /// both on one AsyncHTTPClient transport. The audit (``audit(_:_:fixture:)``) checks every
    /// call against the sandboxes' own records, never against what the clients believe.
    @Suite("SDK clients against their sandboxes")
    struct SDKSoak {
        enum Kind: String, CaseIterable, Sendable {
            /// `MarkbookClient.getMarkbook(key:)`.
            case readMarkbook
            /// `MarkbookClient.putStudentResult(…)`: an absolute value, retried when safe.
            case putResult
            /// `MarkbookClient.createStudent(…)`: a GET that creates; never repeated once sent.
            case createStudent
            /// `todos.create(todolistID:_:)`: a POST without an idempotency key.
            case createTodo
            /// `todos.complete(todoID:)`.
            case completeTodo
            /// `todos.replace(todoID:_:)`: a whole-record PUT.
            case updateTodo
            /// `todos.list(todolistID:completed:)`: every page.
            case listTodos

            var isIdempotent: Bool { self != .createStudent && self != .createTodo }
            var isCreate: Bool { !isIdempotent }
        }

        /// What one call did, and when, as the caller saw it.
        struct Outcome: Sendable {
            var index: Int
            var kind: Kind
            /// The result slot (``Fixture/slots`` index) or to-do id the call wrote to; 0 otherwise.
            var target = 0
            /// What a write sent: a result, a to-do's new content, or a create's unique marker.
            var value = ""
            var error: APIError?
            var untypedError: String?
            /// The key or id a successful create returned.
            var createdID: Int?
            var started: ContinuousClock.Instant
            var ended: ContinuousClock.Instant

            init(index: Int, kind: Kind, started: ContinuousClock.Instant) {
                self.index = index
                self.kind = kind
                self.started = started
                self.ended = started
            }
        }

        /// One student's result for one task in the read markbook.
        struct ResultSlot: Sendable {
            var studentKey: Int
            var sid: String
            var taskKey: Int
            var taskName: String
        }

        /// What the run works on, set up before any fault is switched on.
        struct Fixture: Sendable {
            var slots: [ResultSlot]
            var baseTodoIDs: [Int]
            var baseListID: Int
            var createsListID: Int
        }

        /// The seeded 10MAT1 markbook: read, and written result by result.
        static let readMarkbookKey = 1_000_001
        /// The seeded 9SCI markbook and its class: students are created here, so the markbook
        /// that is read stays small.
        static let createsMarkbookKey = 1_000_003
        static let createsClassKey = 3004
        static let baseTodos = 64

        static func kind(for index: Int) -> (Kind, UInt64) {
            // The mix comes from a generator of its own, so it does not depend on scheduling.
            var random = SplitMix64(seed: ChaosSoakTests.seed &+ UInt64(index))
            let draw = random.next() % 100
            let target = random.next()
            switch draw {
            case 0..<15: return (.readMarkbook, target)
            case 15..<30: return (.putResult, target)
            case 30..<40: return (.createStudent, target)
            case 40..<55: return (.createTodo, target)
            case 55..<65: return (.completeTodo, target)
            case 65..<85: return (.updateTodo, target)
            default: return (.listTodos, target)
            }
        }

        static func perform(
            _ index: Int,
            markbook: MarkbookClient,
            account: AccountClient,
            fixture: Fixture
        ) async -> Outcome {
            let (kind, draw) = kind(for: index)
            var outcome = Outcome(index: index, kind: kind, started: .now)
            do {
                switch kind {
                case .readMarkbook:
                    _ = try await markbook.getMarkbook(key: readMarkbookKey)
                case .putResult:
                    outcome.target = Int(draw % UInt64(fixture.slots.count))
                    let slot = fixture.slots[outcome.target]
                    // Unique per call, so the stored text names the call that wrote it.
                    outcome.value = "\(index % 10).\(index)"
                    try await markbook.putStudentResult(
                        markbookKey: readMarkbookKey,
                        studentKey: slot.studentKey,
                        sid: slot.sid,
                        taskKey: slot.taskKey,
                        taskName: slot.taskName,
                        result: outcome.value
                    )
                case .createStudent:
                    outcome.value = "op-\(index)"
                    outcome.createdID = try await markbook.createStudent(
                        markbookKey: createsMarkbookKey,
                        sid: "soak-\(index)",
                        familyName: outcome.value,
                        givenName: "Soak",
                        preferredName: "",
                        gender: .other,
                        classKey: createsClassKey
                    )
                case .createTodo:
                    outcome.value = "op-\(index)"
                    let todo = try await account.todos.create(
                        todolistID: Int64(fixture.createsListID),
                        CreateTodoRequest(content: outcome.value)
                    )
                    outcome.createdID = Int(todo.id)
                case .completeTodo:
                    outcome.target = fixture.baseTodoIDs[Int(draw % UInt64(fixture.baseTodoIDs.count))]
                    try await account.todos.complete(todoID: Int64(outcome.target))
                case .updateTodo:
                    outcome.target = fixture.baseTodoIDs[Int(draw % UInt64(fixture.baseTodoIDs.count))]
                    outcome.value = "upd-\(index)"
                    _ = try await account.todos.replace(
                        todoID: Int64(outcome.target),
                        ReplaceTodoRequest(content: outcome.value)
                    )
                case .listTodos:
                    // Open and completed to-dos in turn: the completed list grows past one page.
                    _ = try await account.todos.list(
                        todolistID: Int64(fixture.baseListID),
                        completed: index.isMultiple(of: 2)
                    )
                }
            } catch let error as APIError {
                outcome.error = error
            } catch {
                outcome.untypedError = String(describing: error)
            }
            outcome.ended = .now
            return outcome
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("Markbook and Basecamp SDKs under 20% faults: no doubled write, state matches, idempotent calls succeed")
        func soak() async throws {
            let markbookModule = MarkbookSandboxModule()
            let basecampModule = BasecampSandboxModule()
            // The soak is a burst; Basecamp's rate limit would stretch it over minutes.
            basecampModule.rateLimiter.setLimit(nil)
            let count = ChaosSoakTests.operations
            let (report, finished) = try await ChaosSoakTests.withSandboxAndTransport(
                modules: [markbookModule, basecampModule]
            ) { sandbox, transport in
                let tally = AttemptTally()
                let account = MarkbookSandboxModule.Account.sandbox
                let markbook = try MarkbookClient(
                    apiKey: account.apiKey,
                    username: account.username,
                    password: account.password,
                    configuration: ClientConfiguration(
                        baseURL: sandbox.baseURL.appending(path: MarkbookSandboxModule.defaultBasePath),
                        timeout: .seconds(5),
                        hooks: tally,
                        retry: ChaosSoakTests.retryPolicy,
                        retryBudget: ChaosSoakTests.retryBudget
                    ),
                    transport: transport
                )
                let basecamp = try BasecampClient(
                    accessToken: "soak-token",
                    userAgent: "ChaosSoak (soak@example.com)",
                    config: BasecampConfig(
                        baseURL: sandbox.baseURL.appending(path: BasecampSandboxModule.defaultBasePath),
                        timeoutInterval: 5,
                        retryPolicy: ChaosSoakTests.retryPolicy,
                        retryBudget: ChaosSoakTests.retryBudget
                    ),
                    hooks: tally,
                    transport: transport
                )
                let todos = try basecamp.forAccount(BasecampSandboxModule.defaultAccountID)

                // Before any fault: log in to Markbook, learn the result slots, make the to-do lists
                // and the to-dos to complete, update and list.
                let sheet = try await markbook.getMarkbook(key: Self.readMarkbookKey)
                let slots = sheet.students.flatMap { student in
                    sheet.tasks.map {
                        ResultSlot(studentKey: student.key, sid: student.studentID, taskKey: $0.key, taskName: $0.name)
                    }
                }
                let todoset = Int64(BasecampSandboxSeed.letoLaptopTodosetID)
                let baseList = try await todos.todolists.create(todosetID: todoset, CreateTodolistRequest(name: "Soak"))
                let createsList = try await todos.todolists.create(
                    todosetID: todoset,
                    CreateTodolistRequest(name: "Soak creates")
                )
                var baseTodoIDs: [Int] = []
                for index in 0..<Self.baseTodos {
                    let todo = try await todos.todos.create(
                        todolistID: baseList.id,
                        CreateTodoRequest(content: "base-\(index)")
                    )
                    baseTodoIDs.append(Int(todo.id))
                }
                let fixture = Fixture(
                    slots: slots,
                    baseTodoIDs: baseTodoIDs,
                    baseListID: Int(baseList.id),
                    createsListID: Int(createsList.id)
                )
                var view = SandboxView(
                    initialResults: slots.map {
                        markbookModule.result(
                            markbookKey: Self.readMarkbookKey,
                            studentKey: $0.studentKey,
                            taskKey: $0.taskKey
                        )
                    },
                    studentsBefore: Set(markbookModule.students(markbookKey: Self.createsMarkbookKey).map(\.key)),
                    todosBefore: Dictionary(
                        basecampModule.todos().map { ($0.id, $0) },
                        uniquingKeysWith: { first, _ in first }
                    )
                )
                tally.reset()
                let requestsBefore = sandbox.counters().totalRequests
                sandbox.setFaults(
                    ChaosSoakTests.faults(
                        pathPrefixes: [MarkbookSandboxModule.defaultBasePath, BasecampSandboxModule.defaultBasePath]
                    )
                )

                let started = ContinuousClock.now
                let outcomes = await ChaosSoakTests.runConcurrently(count: count) { index in
                    await Self.perform(index, markbook: markbook, account: todos, fixture: fixture)
                }
                let elapsed = ContinuousClock.now - started
                sandbox.setFaults(.none)

                // The sandboxes' own records, read directly rather than through the clients.
                view.finalResults = slots.map {
                    markbookModule.result(
                        markbookKey: Self.readMarkbookKey,
                        studentKey: $0.studentKey,
                        taskKey: $0.taskKey
                    )
                }
                view.students = markbookModule.students(markbookKey: Self.createsMarkbookKey)
                view.todos = basecampModule.todos()
                let markbookCounters = markbookModule.counters()
                view.refusals = markbookCounters.refusalsByAction
                view.logins = markbookCounters.logins
                let requests = sandbox.counters().totalRequests - requestsBefore
                let report = Self.audit(outcomes, view, fixture: fixture)
                try ChaosSoakTests.publish(
                    report.summary(elapsed: elapsed, requests: requests, attempts: tally.summary)
                )
                return (report, outcomes.count)
            }
            #expect(finished == count)
            ChaosSoakTests.expectClean(report.counts)
        }
    }
}
