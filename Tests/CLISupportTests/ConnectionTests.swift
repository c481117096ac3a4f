import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@Suite("CommandContext.connection(): base URL, sandbox, retry, timeout, verbose")
struct ConnectionTests {
    static let hello = ScriptedTransport.Step.json(["greeting": "hello"], headers: [.xRequestID: "r-1"])

    @Test("The base URL comes from --base-url, else <PREFIX>_BASE_URL")
    func baseURL() async throws {
        let transport = ScriptedTransport([Self.hello, Self.hello])
        let fromFlag = await CLIRunner.capture(
            TestTool.self,
            arguments: ["--base-url", "https://api.example.com/v1/", "fetch"],
            variables: ["TESTTOOL_BASE_URL": "https://ignored.example.com"]
        ) { $0.transport = transport }
        #expect(fromFlag.exitCode == 0)
        #expect(fromFlag.stdout.contains("base: https://api.example.com/v1\n"))
        let fromVariable = await CLIRunner.capture(
            TestTool.self,
            arguments: ["fetch"],
            variables: ["TESTTOOL_BASE_URL": "https://env.example.com"]
        ) { $0.transport = transport }
        #expect(fromVariable.stdout.contains("base: https://env.example.com\n"))
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "https://api.example.com/v1/hello", "https://env.example.com/hello",
            ]
        )
    }

    @Test(
        "An unusable base URL is a bad command line (64)",
        arguments: ["http://api.example.com", "not a url", "ftp://files.example.com", "https://x.example.com/?q=1"]
    )
    func badBaseURL(url: String) async {
        let result = await CLIRunner.capture(TestTool.self, arguments: ["--base-url", url, "fetch"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("Error: --base-url"))
    }

    @Test("--timeout and --no-retry shape the client configuration")
    func options() async {
        let transport = ScriptedTransport([Self.hello, Self.hello])
        let defaults = await CLIRunner.capture(
            TestTool.self,
            arguments: ["--base-url", "https://api.example.com", "fetch"]
        ) { $0.transport = transport }
        #expect(defaults.stdout.contains("retry attempts: 3\n"))
        #expect(defaults.stdout.contains("timeout ms: 30000\n"))
        let tuned = await CLIRunner.capture(
            TestTool.self,
            arguments: ["--base-url", "https://api.example.com", "--no-retry", "--timeout", "2.5", "fetch"]
        ) { $0.transport = transport }
        #expect(tuned.stdout.contains("retry attempts: 1\n"))
        #expect(tuned.stdout.contains("timeout ms: 2500\n"))
        #expect(transport.requests.last?.options.timeout == .milliseconds(2500))
    }

    @Test("Retries use the environment's clock, so a test never waits")
    func retriesOnTheClock() async {
        let clock = TestClock()
        let transport = ScriptedTransport([.status(503), .status(503), Self.hello], clock: clock)
        let result = await CLIRunner.capture(
            TestTool.self,
            arguments: ["--base-url", "https://api.example.com", "fetch"]
        ) {
            $0.transport = transport
            $0.clock = clock
        }
        #expect(result.exitCode == 0)
        #expect(transport.requests.count == 3)
        #expect(clock.sleeps.count == 2)
    }

    @Test("--verbose prints one redacted line per attempt on stderr")
    func verbose() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([.status(503), Self.hello], clock: clock)
        let result = await CLIRunner.capture(
            TestTool.self,
            arguments: ["--base-url", "https://api.example.com", "-v", "fetch", "--secret-query", "k3y-0f-mine"]
        ) {
            $0.transport = transport
            $0.clock = clock
        }
        #expect(result.exitCode == 0)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("[http] GET https://api.example.com/hello?apikey=[REDACTED] -> 503 in "))
        #expect(lines[0].hasSuffix("(attempt 1)"))
        #expect(lines[1].hasPrefix("[http] retrying GET https://api.example.com/hello?apikey=[REDACTED] in "))
        #expect(lines[1].contains("after api_error"))
        #expect(lines[2].hasSuffix("(attempt 2, request r-1)"))
        #expect(!result.stderr.contains("k3y-0f-mine"))
        #expect(!result.stdout.contains("[http]"))
    }

    @Test("A failed call under --verbose ends with a failure line, then the error")
    func verboseFailure() async {
        let transport = ScriptedTransport([.connectionRefused])
        let result = await CLIRunner.capture(
            TestTool.self,
            arguments: ["--base-url", "https://api.example.com", "--verbose", "--no-retry", "fetch"]
        ) { $0.transport = transport }
        #expect(result.exitCode == 6)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("-> network after") == true)
        #expect(lines.contains { $0.contains("failed after 1 attempt(s): network") })
        #expect(lines.contains("error: Connection refused."))
    }

    @Test("--sandbox starts the tool's sandbox, talks to it, and stops it afterwards")
    func sandbox() async throws {
        let result = await CLIRunner.capture(TestTool.self, arguments: ["--sandbox", "--verbose", "fetch"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("body: hello from the sandbox\n"))
        #expect(result.stderr.hasPrefix("[sandbox] serving http://127.0.0.1:"))
        let base = try #require(
            result.stdout.split(separator: "\n").first { $0.hasPrefix("base: ") }.map { String($0.dropFirst(6)) }
        )
        #expect(base.hasSuffix("/testtool"))
        // The sandbox is gone once the command has returned.
        let after = await CLIRunner.capture(TestTool.self, arguments: ["--base-url", base, "--no-retry", "fetch"])
        #expect(after.exitCode == 6)
    }
}

@Suite("Progress on stderr")
struct ProgressTests {
    @Test("Drawn in place when stderr is a terminal, and cleared at the end")
    func terminal() async {
        let result = await CLIRunner.capture(TestTool.self, arguments: ["pages"]) { $0.standardErrorIsTerminal = true }
        #expect(result.stdout == "done\n")
        #expect(result.stderr.contains("\r\u{1B}[2KFetching ListThings: page 1, 20 of 60 items…"))
        #expect(result.stderr.contains("\r\u{1B}[2KFetching ListThings: page 3, 60 of 60 items…"))
        #expect(result.stderr.hasSuffix("\r\u{1B}[2K"))
    }

    @Test("Silent when stderr is not a terminal, or under --verbose")
    func quiet() async {
        let piped = await CLIRunner.capture(TestTool.self, arguments: ["pages"])
        #expect(piped.stderr.isEmpty)
        let verbose = await CLIRunner.capture(TestTool.self, arguments: ["--verbose", "pages"]) {
            $0.standardErrorIsTerminal = true
        }
        #expect(verbose.stderr.isEmpty)
    }
}
