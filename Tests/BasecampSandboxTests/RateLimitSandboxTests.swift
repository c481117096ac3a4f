import APISandbox
import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

/// Basecamp's rate limit as the sandbox plays it: per account and address, 429 with Retry-After.
/// The module's clock is a test clock, so the window moves only when a test (or the SDK's retry
/// wait) advances it, however slow the machine.
@Suite("The sandbox's rate limit")
struct RateLimitSandboxTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func module(_ limit: SandboxRateLimit?, clock: TestClock) -> BasecampSandboxModule {
        var module = BasecampSandboxModule()
        module.timeSource = clock
        if limit != .basecamp { module.rateLimiter.setLimit(limit) }
        return module
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("On by default: 50 in a window pass, the 51st gets 429, Retry-After and Basecamp's error body")
    func onByDefault() async throws {
        #expect(BasecampSandboxModule().rateLimiter.limit == .basecamp)
        let clock = TestClock()
        try await withBasecampSandbox(module: Self.module(.basecamp, clock: clock)) { sandbox in
            for _ in 0..<50 {
                #expect(try await sandbox.raw("GET", "/\(accountID)/projects.json").status == 200)
            }
            let refused = try await sandbox.raw("GET", "/\(accountID)/projects.json")
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After") == "10")
            #expect(refused.json?["error"] == "Rate limit exceeded: 50 requests per 10 seconds.")
            #expect(
                try await sandbox.raw("GET", "/999/projects.json").status == 404,
                "another account is counted apart"
            )
            try await clock.sleep(for: .seconds(10))
            #expect(try await sandbox.raw("GET", "/\(accountID)/projects.json").status == 200)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A window of its own for tests: Retry-After says when a request leaves it")
    func ownWindow() async throws {
        let clock = TestClock()
        try await withBasecampSandbox(module: Self.module(SandboxRateLimit(3, per: .seconds(4)), clock: clock)) {
            sandbox in
            #expect(try await sandbox.raw("GET", "/\(accountID)/projects.json").status == 200)
            try await clock.sleep(for: .milliseconds(1500))
            for _ in 0..<2 {
                #expect(try await sandbox.raw("GET", "/\(accountID)/projects.json").status == 200)
            }
            let refused = try await sandbox.raw("GET", "/\(accountID)/projects.json")
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After") == "3", "2.5 s until the first leaves, rounded up")
            // The same account spelled with a percent-encoded digit is the same account's budget.
            #expect(accountID.hasPrefix("1"))
            let encoded = "%31" + accountID.dropFirst()
            #expect(try await sandbox.raw("GET", "/\(encoded)/projects.json").status == 429)
            try await clock.sleep(for: .milliseconds(2500))
            #expect(try await sandbox.raw("GET", "/\(accountID)/projects.json").status == 200)
            #expect(try await sandbox.raw("GET", "/\(accountID)/projects.json").status == 429)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A create refused with 429 is sent again after Retry-After, and kept once")
    func createRetried() async throws {
        let clock = TestClock()
        let module = Self.module(SandboxRateLimit(1, per: .seconds(10)), clock: clock)
        try await withBasecampSandbox(module: module) { sandbox in
            let account = try sandbox.account(clock: clock)
            let list = Int64(BasecampSandboxSeed.launchChecklistTodolistID)
            _ = try await account.todos.create(todolistID: list, CreateTodoRequest(content: "First"))
            let second = try await account.todos.create(todolistID: list, CreateTodoRequest(content: "Second"))
            #expect(module.todos().filter { $0.title == "Second" }.map(\.id) == [Int(second.id)])
            #expect(sandbox.counters().totalRequests == 3)
            #expect(clock.sleeps == [.seconds(10)])
        }
    }
}
