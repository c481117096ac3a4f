import APISandbox
import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore
import Testing

/// Basecamp's rate limit as the sandbox plays it: per account and address, 429 with Retry-After.
@Suite("The sandbox's rate limit")
struct RateLimitSandboxTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("On by default: 50 in a window pass, the 51st gets 429, Retry-After and Basecamp's error body")
    func onByDefault() async throws {
        let module = BasecampSandboxModule()
        #expect(module.rateLimiter.limit == .basecamp)
        try await withBasecampSandbox(module: module) { sandbox in
            // All at once, so that even a slow machine sends them within the 10 seconds.
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 { group.addTask { try await sandbox.raw("GET", "/\(accountID)/projects.json").status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 50))
            let refused = try await sandbox.raw("GET", "/\(accountID)/projects.json")
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After").flatMap(Int.init).map { (1...10).contains($0) } == true)
            #expect(refused.json?["error"] == "Rate limit exceeded: 50 requests per 10 seconds.")
            #expect(
                try await sandbox.raw("GET", "/999/projects.json").status == 404,
                "another account is counted apart"
            )
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A window of its own for tests: refused, then let in once Retry-After has passed")
    func ownWindow() async throws {
        let module = BasecampSandboxModule()
        module.rateLimiter.setLimit(RateLimit(3, per: .seconds(3)))
        try await withBasecampSandbox(module: module) { sandbox in
            for _ in 0..<3 {
                #expect(try await sandbox.raw("GET", "/\(accountID)/projects.json").status == 200)
            }
            let refused = try await sandbox.raw("GET", "/\(accountID)/projects.json")
            #expect(refused.status == 429)
            let wait = try #require(refused.header("Retry-After").flatMap(Int.init))
            #expect((1...3).contains(wait))
            try await Task.sleep(for: .seconds(wait))
            #expect(try await sandbox.raw("GET", "/\(accountID)/projects.json").status == 200)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A create refused with 429 is sent again after Retry-After, and kept once")
    func createRetried() async throws {
        let module = BasecampSandboxModule()
        module.rateLimiter.setLimit(RateLimit(1, per: .seconds(3)))
        try await withBasecampSandbox(module: module) { sandbox in
            let account = try sandbox.account()
            let list = Int64(BasecampSandboxSeed.launchChecklistTodolistID)
            _ = try await account.todos.create(todolistID: list, CreateTodoRequest(content: "First"))
            let second = try await account.todos.create(todolistID: list, CreateTodoRequest(content: "Second"))
            #expect(module.todos().filter { $0.content == "Second" }.map(\.id) == [Int(second.id)])
            #expect(sandbox.counters().totalRequests == 3)
        }
    }
}
