import APISandbox
import Basecamp
import BasecampSandbox
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@Suite("The Basecamp sandbox: auth, paging, ETags, state and faults")
struct SandboxBehaviourTests {
    private static let hardware = BasecampSandboxSeed.hardwareTodolistID
    private static let leto = BasecampSandboxSeed.letoLaptopProjectID

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Lists page by Link with X-Total-Count: the Hardware list is 50 + 50 + 20")
    func pagination() async throws {
        try await withBasecampSandbox { sandbox in
            let first = try await sandbox.raw("GET", "/\(accountID)/todolists/\(Self.hardware)/todos.json")
            #expect(first.status == 200)
            #expect(first.json?.arrayValue?.count == 50)
            #expect(first.header("X-Total-Count") == "120")
            let next = "\(sandbox.basecampURL.absoluteString)/\(accountID)/todolists/\(Self.hardware)/todos.json?page=2"
            #expect(first.header("Link") == "<\(next)>; rel=\"next\"")
            let last = try await sandbox.raw("GET", "/\(accountID)/todolists/\(Self.hardware)/todos.json?page=3")
            #expect(last.json?.arrayValue?.count == 20)
            #expect(last.header("Link") == nil)
            // Basecamp sends no total for three paginated operations, ListQuestionAnswerers one.
            let answerers = try await sandbox.raw("GET", "/\(accountID)/questions/2/answers/by.json")
            #expect(answerers.status == 200)
            #expect(answerers.header("X-Total-Count") == nil)

            let todos = try await sandbox.account().todos.list(todolistID: Int64(Self.hardware))
            #expect(todos.count == 120)
            #expect(todos.meta.totalCount == 120)
            #expect(todos.meta.pageCount == 3)
            #expect(todos.first?.title == "Program the flux capacitor")
            #expect(Set(todos.map(\.id)).count == 120)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("GETs carry an ETag; If-None-Match answers 304 without a body")
    func conditionalGet() async throws {
        try await withBasecampSandbox { sandbox in
            let path = "/\(accountID)/projects/\(Self.leto)"
            let first = try await sandbox.raw("GET", path)
            let etag = try #require(first.header("ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            let again = try await sandbox.raw("GET", path, headers: ["If-None-Match": etag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("ETag") == etag)
            #expect(again.header("X-Request-Id") != nil)
            let weak = try await sandbox.raw("GET", path, headers: ["If-None-Match": "W/\(etag)"])
            #expect(weak.status == 304)

            // A change gives a new tag, so the old one no longer matches.
            _ = try await sandbox.account().projects.update(
                projectID: Int64(Self.leto),
                UpdateProjectRequest(name: "The Leto Laptop 2")
            )
            let changed = try await sandbox.raw("GET", path, headers: ["If-None-Match": etag])
            #expect(changed.status == 200)
            #expect(changed.header("ETag") != etag)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A missing bearer token is 401 in plain text; any other token works, except rejected ones")
    func authentication() async throws {
        let module = BasecampSandboxModule(rejectedTokens: ["revoked-token"])
        try await withBasecampSandbox(module: module) { sandbox in
            let anonymous = try await sandbox.raw("GET", "/\(accountID)/projects.json", token: nil)
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate") == "Bearer realm=\"Basecamp\"")
            #expect(anonymous.header("X-Request-Id")?.hasPrefix("basecamp-") == true)
            #expect(String(decoding: anonymous.body, as: UTF8.self) == "OAuth token required")
            #expect(anonymous.header("Content-Type")?.hasPrefix("text/plain") == true, "Basecamp's 401 is plain text")

            let anyToken = try await sandbox.raw("GET", "/\(accountID)/projects.json", token: "whatever")
            #expect(anyToken.status == 200)

            let revoked = try sandbox.account(token: "revoked-token")
            let error = await expectAPIError(.authRequired) { _ = try await revoked.projects.list() }
            #expect(error?.httpStatus == 401)
            #expect(error?.message == "OAuth token invalid", "the plain-text body is the message")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A request whose User-Agent is blank or names no contact is refused with 400, before its token is read")
    func userAgentRequired() async throws {
        try await withBasecampSandbox { sandbox in
            let path = "/\(accountID)/projects.json"
            let blank = try await sandbox.raw("GET", path, token: nil, headers: ["User-Agent": " "])
            #expect(blank.status == 400)
            #expect(blank.json?["error"]?.stringValue?.hasPrefix("User-Agent must name") == true)
            for agent in ["MyApp/1.0", "curl/8.5.0", "(me@example.com)"] {
                let anonymous = try await sandbox.raw("GET", path, token: nil, headers: ["User-Agent": agent])
                #expect(anonymous.status == 400, "\(agent)")
            }
            let named = try await sandbox.raw("GET", path, headers: ["User-Agent": "App (a@b.c)"])
            #expect(named.status == 200)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An operation answered from the Spec's example still wants its required query parameters")
    func requiredQueryParameters() async throws {
        try await withBasecampSandbox { sandbox in
            let upcoming = "/\(accountID)/reports/schedules/upcoming.json"
            let bare = try await sandbox.raw("GET", upcoming)
            #expect(bare.status == 400)
            #expect(bare.json?["error"]?.stringValue?.contains("window_starts_on") == true)
            let window = "?window_starts_on=2026-12-01&window_ends_on=2026-12-31"
            #expect(try await sandbox.raw("GET", upcoming + window).status == 200)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Unknown accounts, records and routes are 404")
    func notFound() async throws {
        try await withBasecampSandbox { sandbox in
            let account = try sandbox.account()
            #expect(try await sandbox.raw("GET", "/999/projects.json").status == 404)
            #expect(try await sandbox.raw("GET", "/\(accountID)/todos/1").status == 404)
            #expect(try await sandbox.raw("GET", "/\(accountID)/no/such/route.json").status == 404)
            #expect(try await sandbox.raw("PATCH", "/\(accountID)/projects/\(Self.leto)").status == 405)
            await #expect {
                _ = try await account.todos.get(todoID: 1)
            } throws: { error in
                (error as? APIError)?.code == .notFound
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("To-dos: create, update, complete, uncomplete and trash change what lists show")
    func todoLifecycle() async throws {
        try await withSandboxAccount { account, _ in
            let list = Int64(BasecampSandboxSeed.launchChecklistTodolistID)
            #expect(try await account.todos.list(todolistID: list).count == 6)

            let created = try await account.todos.create(
                todolistID: list,
                CreateTodoRequest(
                    content: "Order the launch cake",
                    assigneeIDs: [1_049_715_917],
                    dueOn: CalendarDate(year: 2026, month: 3, day: 1)
                )
            )
            #expect(created.content == "Order the launch cake")
            #expect(created.assignees?.map(\.name) == ["Amy Chen"])
            #expect(created.bucket.id == Int64(Self.leto))
            var open = try await account.todos.list(todolistID: list)
            #expect(open.map(\.id).contains(created.id))

            let replaced = try await account.todos.replace(
                todoID: created.id,
                ReplaceTodoRequest(content: "Order two launch cakes")
            )
            #expect(replaced.content == "Order two launch cakes")
            #expect(replaced.assignees?.isEmpty == true)

            try await account.todos.complete(todoID: created.id)
            open = try await account.todos.list(todolistID: list)
            #expect(!open.map(\.id).contains(created.id))
            let done = try await account.todos.list(todolistID: list, completed: true)
            #expect(done.map(\.id).contains(created.id))

            try await account.todos.uncomplete(todoID: created.id)
            #expect(try await account.todos.get(todoID: created.id).completed == false)

            try await account.recordings.trash(recordingID: created.id)
            open = try await account.todos.list(todolistID: list)
            #expect(!open.map(\.id).contains(created.id))
            #expect(try await account.todos.get(todoID: created.id).status == .trashed)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Body members outside the request schema are ignored: a GET's JSON sent back completes nothing")
    func bodyMembersOutsideTheSchema() async throws {
        try await withBasecampSandbox { sandbox in
            let create = "/\(accountID)/todolists/\(Self.hardware)/todos.json"
            let created = try await sandbox.raw(
                "POST",
                create,
                body: #"{"content": "Book it", "assignee_ids": [1049715917], "completed": true, "status": "drafted"}"#
            )
            #expect(created.status == 201)
            #expect(created.json?["completed"] == false)
            // CreateTodo's schema has no `status`: the to-do is not a hidden draft.
            #expect(created.json?["status"] == "active")
            let id = try #require(created.json?["id"]?.intValue)

            let read = try await sandbox.raw("GET", "/\(accountID)/todos/\(id)")
            var sentBack = try #require(try JSONSerialization.jsonObject(with: read.body) as? [String: Any])
            #expect((sentBack["assignees"] as? [Any])?.count == 1)
            sentBack["content"] = "Book the bigger venue"
            sentBack["completed"] = true
            let body = String(decoding: try JSONSerialization.data(withJSONObject: sentBack), as: UTF8.self)
            let replaced = try await sandbox.raw("PUT", "/\(accountID)/todos/\(id)", body: body)
            #expect(replaced.status == 200)
            #expect(replaced.json?["content"] == "Book the bigger venue")
            #expect(replaced.json?["completed"] == false)
            // A replace clears what its body leaves out, and `assignees` is not `assignee_ids`.
            #expect(replaced.json?["assignees"] == [])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Writes are validated: blank content and bad dates are 422 with field errors")
    func validation() async throws {
        try await withBasecampSandbox { sandbox in
            let path = "/\(accountID)/todolists/\(Self.hardware)/todos.json"
            let blank = try await sandbox.raw("POST", path, body: #"{"content": "  "}"#)
            #expect(blank.status == 422)
            #expect(blank.json?["errors"]?["content"] == ["can't be blank"])
            let badDate = try await sandbox.raw("POST", path, body: #"{"content": "x", "due_on": "soon"}"#)
            #expect(badDate.status == 422)
            let notJSON = try await sandbox.raw("POST", path, body: "content=x")
            #expect(notJSON.status == 400)
            // Operations answered from examples check their required members too.
            let document = try await sandbox.raw("POST", "/\(accountID)/vaults/1/documents.json", body: "{}")
            #expect(document.status == 422)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Projects, people, lists, messages and comments come from the seeded account")
    func seededAccount() async throws {
        try await withSandboxAccount { account, _ in
            let projects = try await account.projects.list()
            #expect(
                projects.map(\.name) == ["The Leto Laptop", "Marketing Website Relaunch", "Hiring: Backend Engineer"]
            )
            #expect(try await account.projects.list(status: "archived").map(\.name) == ["Office Move"])
            #expect(try await account.people.list().count == 7)
            #expect(try await account.people.getMyProfile().name == "Victor Cooper")
            let lists = try await account.todolists.list(todosetID: Int64(BasecampSandboxSeed.letoLaptopTodosetID))
            #expect(lists.map(\.name) == ["Hardware", "Launch checklist"])
            let board = Int64(BasecampSandboxSeed.letoLaptopMessageBoardID)
            let messages = try await account.messages.list(boardID: board)
            #expect(messages.map(\.subject) == ["Supplier shortlist", "Kickoff"])
            let comments = try await account.comments.list(recordingID: Int64(BasecampSandboxSeed.kickoffMessageID))
            #expect(comments.count == 3)

            let message = try await account.messages.create(
                boardID: board,
                CreateMessageRequest(subject: "Launch date", content: "<div>March 3.</div>")
            )
            let comment = try await account.comments.create(
                recordingID: message.id,
                CreateCommentRequest(content: "<div>Booked.</div>")
            )
            #expect(comment.parent.id == message.id)
            #expect(try await account.messages.get(messageID: message.id).commentsCount == 1)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("429 with Retry-After on one route, then success, as the SDK retries it")
    func rateLimitFault() async throws {
        let route = "/basecamp/\(accountID)/projects.json"
        let faults = FaultInjection(sequence: [.tooManyRequests(retryAfterSeconds: 7), .serviceUnavailable])
        try await withBasecampSandbox(faults: FaultInjection(sequence: faults.sequence, pathPrefixes: [route])) {
            sandbox in
            let clock = TestClock()
            // Another route is not faulted.
            #expect(try await sandbox.account(clock: clock).people.list().count == 7)
            let projects = try await sandbox.account(clock: clock).projects.list()
            #expect(projects.count == 3)
            #expect(sandbox.counters().requestsByPath[route] == 3)
            #expect(clock.sleeps.first == .seconds(7))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A state file keeps the account between sandboxes, private to its owner; a broken one is left as it was")
    func stateFile() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "basecamp-state-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let list = Int64(BasecampSandboxSeed.launchChecklistTodolistID)
        try await withBasecampSandbox(module: try BasecampSandboxModule(stateFile: file)) { sandbox in
            _ = try await sandbox.account().todos.create(todolistID: list, CreateTodoRequest(content: "Kept"))
        }
        // The account holds webhook secrets: the file is its owner's alone, even when an older
        // file was readable by others.
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        try await withBasecampSandbox(module: try BasecampSandboxModule(stateFile: file)) { sandbox in
            let todos = try await sandbox.account().todos.list(todolistID: list)
            #expect(todos.map(\.content).contains("Kept"))
            let reset = try await sandbox.raw("POST", "/_sandbox/reset")
            #expect(reset.status == 204)
        }
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
        try await withBasecampSandbox(module: try BasecampSandboxModule(stateFile: file)) { sandbox in
            let todos = try await sandbox.account().todos.list(todolistID: list)
            #expect(todos.count == 6)
        }
        try Data("not json".utf8).write(to: file)
        #expect {
            try BasecampSandboxModule(stateFile: file)
        } throws: { error in
            (error as? SandboxStateFileError)?.description
                == "The sandbox state file \(file.path) is damaged: it is not valid JSON."
        }
        #expect(try Data(contentsOf: file) == Data("not json".utf8))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A change that cannot be saved is not applied, and answers 500 naming the file")
    func unsavable() async throws {
        let directory = try ScratchFolder("basecamp-ro")
        defer { directory.remove() }
        let file = directory.file("state.json")
        let module = try BasecampSandboxModule(stateFile: file)
        // The directory goes away after the start-up check, as a disk that fills up would fail.
        directory.remove()
        let list = Int64(BasecampSandboxSeed.launchChecklistTodolistID)
        try await withBasecampSandbox(module: module) { sandbox in
            let created = try await sandbox.raw(
                "POST",
                "/\(BasecampSandboxSeed.accountID)/todolists/\(list)/todos.json",
                body: #"{"content":"Lost?"}"#
            )
            #expect(created.status == 500)
            #expect(String(decoding: created.body, as: UTF8.self).contains(file.path))
            #expect(!(try await sandbox.account().todos.list(todolistID: list).map(\.content).contains("Lost?")))
        }
    }
}
