import APISandbox
import AsyncHTTPClient
import BasecampSandbox
import Foundation
import HTTPCore
import NIOCore

extension Runner {
    // MARK: 8. A page from the Basecamp sandbox

    /// A page of 50 from a 2,500-item to-do list next to a page of 50 from the seeded 120-item
    /// list: a ratio near 1 means a page costs what the page holds, not what the list holds.
    func sandboxPage() async throws {
        guard #available(macOS 14, *) else { return }
        try await withBasecampSandbox { sandbox in
            let base = sandbox.baseURL.appending(path: "basecamp/\(BasecampSandboxSeed.accountID)")
            let listID = try await makeLongList(base: base, count: settings.sandboxListSize)
            let long = base.appending(path: "todolists/\(listID)/todos.json").appending(queryItems: [
                URLQueryItem(name: "page", value: String(settings.sandboxListSize / 100))
            ])
            let short = base.appending(path: "todolists/\(BasecampSandboxSeed.hardwareTodolistID)/todos.json")
            let result = try await measurePair(
                iterations: max(settings.iterations / 10, 10),
                variant: { try await self.sandboxGET(long) },
                baseline: { try await self.sandboxGET(short) }
            )
            rows.append(
                Row(
                    workload: "8. sandbox list page",
                    variant: "page \(settings.sandboxListSize / 100) of a \(settings.sandboxListSize)-item to-do list",
                    unit: .time,
                    measured: result,
                    baseline: "page 1 of the seeded 120-item list",
                    floor: .atMost(1.5),
                    note: "50 items a page; target under 5 ms"
                )
            )
        }
    }

    /// Runs `body` against a Basecamp sandbox in this process, stopped however `body` ends. Its
    /// rate limit is off: the rows measure what a call costs, and building the long list takes
    /// thousands of writes.
    @available(macOS 14, *)
    func withBasecampSandbox(_ body: (Sandbox) async throws -> Void) async throws {
        let module = BasecampSandboxModule()
        module.rateLimiter.setLimit(nil)
        try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [module]), body)
    }

    /// A new to-do list holding `count` to-dos, written 16 at a time.
    private func makeLongList(base: URL, count: Int) async throws -> Int {
        let todoset = base.appending(path: "todosets/\(BasecampSandboxSeed.letoLaptopTodosetID)/todolists.json")
        let client = httpClient
        let list = try await Self.sandboxPOST(client, todoset, ["name": "Long list"])
        guard let listID = list["id"]?.intValue else { throw BenchError("the sandbox made no list") }
        let todos = base.appending(path: "todolists/\(listID)/todos.json")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    for index in stride(from: worker, to: count, by: 16) {
                        _ = try await Self.sandboxPOST(client, todos, ["content": .string("To-do \(index)")])
                    }
                }
            }
            try await group.waitForAll()
        }
        return listID
    }

    private func sandboxGET(_ url: URL) async throws {
        let response = try await httpClient.execute(Self.sandboxRequest(url), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
        guard response.status.code == 200 else { throw BenchError("sandbox page answered \(response.status.code)") }
        Sink.consume(body.readableBytes)
    }

    /// A request with what the sandbox, as Basecamp, asks of every one: a token and a
    /// `User-Agent` naming the app and a contact.
    private static func sandboxRequest(_ url: URL) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Authorization", value: "Bearer bench")
        request.headers.add(name: "User-Agent", value: "httpcore-bench (bench@example.com)")
        return request
    }

    private static func sandboxPOST(_ client: HTTPClient, _ url: URL, _ body: JSONValue) async throws -> JSONValue {
        var request = sandboxRequest(url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body.encoded()))
        let response = try await client.execute(request, timeout: .seconds(30))
        let data = try await response.body.collect(upTo: 1024 * 1024)
        guard response.status.code == 201 else { throw BenchError("sandbox create answered \(response.status.code)") }
        return try JSONValue(parsing: Data(data.readableBytesView))
    }
}
