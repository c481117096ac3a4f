import Basecamp
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Client behaviour")
struct BehaviourTests {
    static let listURL = "https://3.basecampapi.com/999/todolists/1/todos.json"

    func todo(id: Int) throws -> JSONValue {
        var todo = try #require(try example("Todo").objectValue)
        todo["id"] = .integer(id)
        return .object(todo)
    }

    @Test("A 3-page list returns every item with the total count, and maxItems truncates")
    func threePageList() async throws {
        let pages: [ScriptedTransport.Step] = [
            jsonResponse(
                [try todo(id: 1), try todo(id: 2)],
                headers: ["Link": "<\(Self.listURL)?page=2>; rel=\"next\"", "X-Total-Count": "5"]
            ),
            jsonResponse(
                [try todo(id: 3), try todo(id: 4)],
                headers: ["Link": "<\(Self.listURL)?page=3>; rel=\"next\"", "X-Total-Count": "5"]
            ),
            jsonResponse([try todo(id: 5)], headers: ["X-Total-Count": "5"]),
        ]
        let transport = ScriptedTransport(pages)
        let account = try makeBasecamp(transport).forAccount("999")
        let todos = try await account.todos.list(todolistID: 1, status: "active")
        #expect(todos.map(\.id) == [1, 2, 3, 4, 5])
        #expect(todos.meta.totalCount == 5)
        #expect(todos.meta.truncated == false)
        #expect(todos.meta.pageCount == 3)
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                Self.listURL + "?status=active", Self.listURL + "?page=2", Self.listURL + "?page=3",
            ]
        )

        let limited = ScriptedTransport(pages)
        let firstThree = try await makeBasecamp(limited).forAccount("999").todos.list(todolistID: 1, maxItems: 3)
        #expect(firstThree.map(\.id) == [1, 2, 3])
        #expect(firstThree.meta.truncated)
        #expect(firstThree.meta.totalCount == 5)
    }

    @Test("The streaming form yields items page by page")
    func streamingList() async throws {
        let transport = ScriptedTransport([
            jsonResponse([try todo(id: 1)], headers: ["Link": "<\(Self.listURL)?page=2>; rel=\"next\""]),
            jsonResponse([try todo(id: 2)]),
            jsonResponse([try todo(id: 1)], headers: ["Link": "<\(Self.listURL)?page=2>; rel=\"next\""]),
        ])
        let account = try makeBasecamp(transport).forAccount("999")
        var ids: [Int64] = []
        for try await todo in account.todos.listPaginated(todolistID: 1) { ids.append(todo.id) }
        #expect(ids == [1, 2])
        var pageSizes: [Int] = []
        for try await page in account.todos.listPaginated(todolistID: 1, options: PaginationOptions(maxPages: 1)).pages
        {
            pageSizes.append(page.items.count)
        }
        #expect(pageSizes == [1])
        #expect(transport.requests.count == 3)
    }

    @Test("An idempotent POST is retried after a 503; a non-idempotent one is not")
    func postRetry() async throws {
        let clock = TestClock()
        let idempotent = ScriptedTransport([.status(503), .status(204)])
        try await makeBasecamp(idempotent, clock: clock).forAccount("999").todos.complete(todoID: 7)
        #expect(idempotent.requests.count == 2)
        #expect(clock.sleeps.count == 1)

        let unsafe = ScriptedTransport([.status(503), jsonResponse(try todo(id: 9), status: 201)])
        let account = try makeBasecamp(unsafe).forAccount("999")
        let error = await expectAPIError(.apiError) {
            _ = try await account.todos.create(todolistID: 1, CreateTodoRequest(content: "Buy milk"))
        }
        #expect(error?.httpStatus == 503)
        #expect(unsafe.requests.count == 1)
    }

    @Test("GETs are retried on 429 within the Spec's attempts; retry can be switched off")
    func getRetry() async throws {
        let transport = ScriptedTransport([.status(429), .status(429), .status(429)])
        await expectAPIError(.rateLimit) {
            _ = try await makeBasecamp(transport).forAccount("999").todos.get(todoID: 1)
        }
        #expect(transport.requests.count == 3)

        let off = ScriptedTransport([.status(503), .status(204)])
        let account = try makeBasecamp(off, config: BasecampConfig(enableRetry: false)).forAccount("999")
        let offError = await expectAPIError { try await account.todos.complete(todoID: 7) }
        #expect(offError?.httpStatus == 503)
        #expect(off.requests.count == 1)

        let capped = ScriptedTransport([.status(503), .status(503), .status(204)])
        let cappedAccount = try makeBasecamp(capped, config: BasecampConfig(maxRetries: 1)).forAccount("999")
        let cappedError = await expectAPIError { try await cappedAccount.todos.complete(todoID: 7) }
        #expect(cappedError?.httpStatus == 503)
        #expect(capped.requests.count == 2)

        // A cap above the Spec's three attempts for CompleteTodo does not raise them, nor does the
        // largest cap there is, which must not overflow.
        for cap in [5, Int.max] {
            let high = ScriptedTransport([.status(503), .status(503), .status(503), .status(503), .status(204)])
            let highAccount = try makeBasecamp(high, config: BasecampConfig(maxRetries: cap)).forAccount("999")
            let highError = await expectAPIError { try await highAccount.todos.complete(todoID: 7) }
            #expect(highError?.httpStatus == 503)
            #expect(high.requests.count == 3)
        }
    }

    @Test("A 422 with field errors becomes validation with flattened messages and the request id")
    func validationErrors() async throws {
        let transport = ScriptedTransport([
            jsonResponse(
                ["error": "Validation failed", "errors": ["content": ["can't be blank"], "due_on": ["is invalid"]]],
                status: 422,
                headers: ["X-Request-Id": "req-422"]
            )
        ])
        let account = try makeBasecamp(transport).forAccount("999")
        let error = try #require(
            await expectAPIError(.validation) {
                _ = try await account.todos.create(todolistID: 1, CreateTodoRequest(content: ""))
            }
        )
        #expect(error.exitCode == 9)
        #expect(error.requestID == "req-422")
        #expect(error.details.fieldErrors.map(\.field) == ["content", "due_on"])
        #expect(error.message.contains("content: can't be blank"))
        #expect(error.message.contains("due_on: is invalid"))
    }

    @Test("A 404 is not_found with exit code 2, and the token never shows")
    func notFound() async throws {
        let transport = ScriptedTransport([
            jsonResponse(["error": "Not found"], status: 404, headers: ["X-Request-Id": "req-404"])
        ])
        let account = try makeBasecamp(transport).forAccount("999")
        let error = try #require(await expectAPIError(.notFound) { _ = try await account.projects.get(projectID: 5) })
        #expect(error.exitCode == 2)
        #expect(error.requestID == "req-404")
        #expect(!String(describing: error).contains(testToken))
        #expect(!String(reflecting: error).contains(testToken))
    }

    @Test("The merge-safe update reads the record and writes its full state with the change")
    func mergeSafeUpdate() async throws {
        let current = try todo(id: 42)
        let transport = ScriptedTransport([jsonResponse(current), jsonResponse(current)])
        let account = try makeBasecamp(transport).forAccount("999")
        _ = try await account.todos.modify(todoID: 42) { request in
            request.content = "Program the flux capacitor twice"
        }
        let requests = transport.requests
        // One read, one write: no second read of `updated_at` in between.
        #expect(requests.map(\.request.method) == [.get, .put])
        #expect(requests.map(\.url.path) == ["/999/todos/42", "/999/todos/42"])
        let body = try JSONValue(parsing: try #require(requests[1].body))
        #expect(body["content"] == "Program the flux capacitor twice")
        #expect(body["description"] == current["description"])
        #expect(body["due_on"] == "2026-02-06")
        #expect(body["assignee_ids"] == [.integer(1_049_715_914)])
        #expect(body["completion_subscriber_ids"] == [.integer(1_049_715_913)])
    }

    @Test("A merge-safe update that cannot be completed from the record sends nothing")
    func mergeSafeUpdateNeedsURL() async throws {
        let spec = try #require(SpecSamples.shared)
        let transport = ScriptedTransport([jsonResponse(spec.sample(schema: "CloudFile"))])
        let account = try makeBasecamp(transport).forAccount("999")
        await expectAPIError(.usage) {
            _ = try await account.cloudFiles.modify(cloudFileID: 3) { $0.title = "Renamed" }
        }
        #expect(transport.requests.map(\.request.method) == [.get])
    }

    @Test("Uploads send raw bytes with the name parameter")
    func rawUpload() async throws {
        let transport = ScriptedTransport([jsonResponse(["attachable_sgid": "BAh7"], status: 201)])
        let account = try makeBasecamp(transport).forAccount("999")
        let result = try await account.attachments.create(Data([0, 1, 2]), name: "a b.png", contentType: "image/png")
        #expect(result.attachableSgid == "BAh7")
        let request = try #require(transport.requests.first)
        #expect(request.body == Data([0, 1, 2]))
        #expect(request.header("Content-Type") == "image/png")
        #expect(request.url.query == "name=a%20b.png")
    }

    @Test("A file stored whose upload record then fails: the error names the attachment, sent once")
    func uploadRecordFails() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "upload-\(UUID().uuidString).txt")
        try Data("notes".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = ScriptedTransport([
            jsonResponse(["attachable_sgid": "BAh-stored-1"], status: 201),
            jsonResponse(["error": "Vault is archived"], status: 422),
        ])
        let account = try makeBasecamp(transport).forAccount("999")
        let error = await expectAPIError(.validation) { _ = try await account.upload(file: file, toVault: 42) }
        #expect(error?.hint?.contains("attachable_sgid BAh-stored-1") == true)
        #expect(transport.requests.filter { $0.url.path.hasSuffix("/attachments.json") }.count == 1)
    }

    @Test("Account ids must be numeric", arguments: ["", "abc", "12a", "-5", "0", " "])
    func invalidAccountID(_ id: String) throws {
        let basecamp = try makeBasecamp(ScriptedTransport([]))
        #expect(throws: APIError.self) { try basecamp.forAccount(id) }
    }

    @Test("A valid account id scopes every path")
    func accountScoping() async throws {
        let transport = ScriptedTransport([jsonResponse(try example("Project"))])
        let account = try makeBasecamp(transport).forAccount(" 12345 ")
        #expect(account.accountID == "12345")
        _ = try await account.projects.get(projectID: 2_085_958_504)
        #expect(transport.requests.first?.url.path == "/12345/projects/2085958504")
    }

    @Test("Configuration defaults and environment variables")
    func configuration() throws {
        let defaults = BasecampConfig()
        #expect(defaults.baseURL.absoluteString == "https://3.basecampapi.com")
        #expect(defaults.enableRetry)
        #expect(!defaults.enableCache)
        #expect(defaults.maxPages == 10_000)
        #expect(defaults.timeoutInterval == 30)
        let config = try BasecampConfig.fromEnvironment([
            "BASECAMP_BASE_URL": "http://127.0.0.1:8080", "BASECAMP_TIMEOUT": "12.5", "BASECAMP_MAX_RETRIES": "0",
        ])
        #expect(config.baseURL.absoluteString == "http://127.0.0.1:8080")
        #expect(config.timeoutInterval == 12.5)
        #expect(config.maxRetries == 0)
        for timeout in ["soon", "0", "-1", "nan", "inf", "1e16", "86401"] {
            #expect(throws: APIError.self) { try BasecampConfig.fromEnvironment(["BASECAMP_TIMEOUT": timeout]) }
        }
        #expect(throws: APIError.self) {
            try BasecampClient(
                accessToken: "t",
                userAgent: "App (a@b.c)",
                config: BasecampConfig(timeoutInterval: 1e16),
                transport: ScriptedTransport([])
            )
        }
        #expect(throws: APIError.self) { try BasecampConfig.fromEnvironment(["BASECAMP_MAX_RETRIES": "-1"]) }
        #expect(throws: APIError.self) { try BasecampConfig.fromEnvironment(["BASECAMP_BASE_URL": "ftp://x"]) }
        #expect(throws: APIError.self) {
            try BasecampClient(accessToken: "t", userAgent: " ", transport: ScriptedTransport([]))
        }
        #expect(throws: APIError.self) {
            try BasecampClient(accessToken: "", userAgent: "App (a@b.c)", transport: ScriptedTransport([]))
        }
    }

    @Test("A token provider is asked for the token")
    func tokenProvider() async throws {
        struct Provider: TokenProvider {
            func currentToken() async throws -> String { "provided-token" }
        }
        let transport = ScriptedTransport([jsonResponse(try example("Todo"))])
        let basecamp = try BasecampClient(
            tokenProvider: Provider(),
            userAgent: "BasecampTests (tests@example.com)",
            transport: transport,
            timeSource: TestClock()
        )
        _ = try await basecamp.forAccount("1").todos.get(todoID: 1)
        #expect(transport.requests.first?.header("Authorization") == "Bearer provided-token")
    }

    @Test("Any operation can be called by id with string arguments")
    func performByID() async throws {
        let transport = ScriptedTransport([
            jsonResponse(try example("Todo"), headers: ["X-Request-Id": "req-1"]),
            jsonResponse([try todo(id: 1)], headers: ["X-Total-Count": "1"]),
        ])
        let account = try makeBasecamp(transport).forAccount("999")
        let getTodo = try #require(OperationCatalog.operation(id: "GetTodo"))
        let response = try await account.perform(getTodo, pathParameters: ["todoId": "1069479395"])
        #expect(response.value["content"] == "Program the flux capacitor")
        #expect(response.requestID == "req-1")
        #expect(transport.requests.first?.url.path == "/999/todos/1069479395")

        let listTodos = try #require(OperationCatalog.operation(id: "ListTodos"))
        let items = try await account.performPaginated(
            listTodos,
            pathParameters: ["todolistId": "1"],
            query: [("status", "active")]
        ).collect()
        #expect(items.count == 1)
        #expect(items.meta.totalCount == 1)

        await #expect(throws: APIError.self) { _ = try await account.perform(getTodo) }
        await #expect(throws: APIError.self) {
            _ = try await account.perform(getTodo, pathParameters: ["todoId": "1/../2"])
        }
        let search = try #require(OperationCatalog.operation(id: "Search"))
        await #expect(throws: APIError.self) { _ = try await account.perform(search) }
    }
}
