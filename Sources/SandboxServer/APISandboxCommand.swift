import APISandbox
import ArgumentParser
import BasecampSandbox
import CLISupport
import Dispatch
import Foundation
import HTTPCore
import MarkbookSandbox
import MonashSandbox

/// `api-sandbox`: runs the API sandbox as a standalone server, for poking at it with curl or for
/// pointing an SDK or tool at it by hand.
@main
struct APISandboxCommand: AsyncParsableCommand {
    /// The APIs the server plays: name, where it is mounted, what it accepts.
    @available(macOS 14, iOS 17, tvOS 17, *)
    static let apis: [(name: String, path: String, note: String)] = [
        (
            "Basecamp 3", BasecampSandboxModule.defaultBasePath,
            "any bearer token; account \(BasecampSandboxModule.defaultAccountID)"
        ),
        ("Monash schedule", MonashSandboxModule.defaultBasePath, "no credentials; the example week moved to this week"),
        ("Markbook v1.5", MarkbookSandboxModule.defaultBasePath, "any 32-character API key, user and password"),
        ("Test routes", "/_test", "status codes, delays, holds, scripts, counters"),
    ]

    static var configuration: CommandConfiguration {
        var lines = ["It plays these APIs, each under its base path:"]
        if #available(macOS 14, iOS 17, tvOS 17, *) {
            let width = apis.map(\.path.count).max() ?? 0
            for api in apis {
                let padding = String(repeating: " ", count: width - api.path.count)
                lines.append("  \(api.path)\(padding)  \(api.name) (\(api.note))")
            }
        }
        lines += [
            "",
            "Point a tool at one with its base URL (the Basecamp sandbox takes any token), for example:",
            "  basecamp --base-url http://127.0.0.1:8080/basecamp --token sandbox --account \(BasecampSandboxSeed.accountID) projects list",
            "  curl http://127.0.0.1:8080/monash/schedules",
            "",
            "The Basecamp sandbox limits requests as Basecamp does (50 per 10 seconds per account and address, then 429 with Retry-After): BASECAMP_SANDBOX_RATE_LIMIT=off switches it off, =20/1 sets another (requests/seconds). It takes uploads up to 5 GiB, streamed to disk; BASECAMP_SANDBOX_MAX_UPLOAD=2G sets another cap.",
            "",
            "To try a client's checks against a misbehaving server: BASECAMP_SANDBOX_CLOCK_SKEW=300 runs its clock 300 seconds ahead (the Date header and token times; negative is behind), BASECAMP_SANDBOX_BROKEN_DISCOVERY=1 serves the sign-in server's metadata document cut off mid-JSON, and BASECAMP_SANDBOX_KEEP_REFRESH_TOKENS=1 answers a refresh without a new refresh token, as Launchpad may.",
            "",
            "It runs until interrupted (Ctrl-C or SIGTERM). Exit codes: 0 after a clean stop, 1 when the port is in use or the server cannot start, 64 for a bad command line.",
        ]
        return CommandConfiguration(
            commandName: "api-sandbox",
            abstract: "Runs the API sandbox HTTP server on 127.0.0.1 until interrupted.",
            discussion: lines.joined(separator: "\n"),
            version: "0.1.0"
        )
    }

    /// Parses and runs like ArgumentParser's own `main`, but wraps help itself so example lines
    /// stay whole (see `HelpText`).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let text = HelpText.wrap(
                fullMessage(for: error, columns: HelpText.unwrappedWidth),
                width: HelpText.terminalWidth(),
                commands: ["basecamp", "curl", "api-sandbox"]
            )
            if !text.isEmpty {
                let handle = code == .success ? FileHandle.standardOutput : FileHandle.standardError
                handle.write(Data((text + "\n").utf8))
            }
            Foundation.exit(code.rawValue)
        }
    }

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int = 8080

    @Flag(help: "Log every request on stderr.")
    var verbose = false

    @Flag(help: "List the Basecamp operations that answer a fixed example instead of kept data, then exit.")
    var canned = false

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535")
        }
    }

    func run() async throws {
        if canned {
            let operations = BasecampSandboxModule.cannedOperations
            emit("\(operations.count) Basecamp operations answer the Spec's example (marked X-Sandbox-Example: true):")
            for operation in operations { emit("  " + operation) }
            return
        }
        guard #available(macOS 14, iOS 17, tvOS 17, *) else {
            throw ValidationError("api-sandbox needs macOS 14 or later")
        }
        let markbookOptions: MarkbookSandboxOptions
        do {
            markbookOptions = try MarkbookSandboxOptions(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError("\(error)")
        }
        let clock: SkewedClock?
        var basecamp: BasecampSandboxModule
        do {
            clock = try BasecampSandboxModule.clock(fromEnvironment: ProcessInfo.processInfo.environment)
            let timeSource: any TimeSource = clock ?? SystemTimeSource()
            basecamp = BasecampSandboxModule(
                authorization: BasecampSandboxAuthorization(options: try .fromEnvironment(), now: { timeSource.now() })
            )
            try basecamp.configure(fromEnvironment: ProcessInfo.processInfo.environment)
            basecamp.timeSource = timeSource
        } catch {
            throw ValidationError("\(error)")
        }
        let modules: [any SandboxModule] = [
            basecamp,
            MonashSandboxModule(today: { Date() }),
            MarkbookSandboxModule(acceptsAnyCredentials: true, options: markbookOptions),
        ]
        let configuration = SandboxConfiguration(modules: modules, logRequests: verbose, clock: clock)
        let sandbox: Sandbox
        do {
            sandbox = try await Sandbox.start(port: port, configuration: configuration)
        } catch SandboxError.portInUse(let port) {
            FileHandle.standardError.write(
                Data(
                    "api-sandbox: port \(port) is already in use; choose another with --port, or --port 0 for a free one.\n"
                        .utf8
                )
            )
            throw ExitCode.failure
        }
        // Caught before the first line, which tells a script it may now stop the server.
        let signals = TerminationSignals()
        // Written straight to the file handle so the line is visible at once even when stdout is
        // a pipe, which is how scripts wait for the server to come up.
        emit("api-sandbox listening on \(sandbox.baseURL.absoluteString)")
        let width = Self.apis.map(\.name.count).max() ?? 0
        for api in Self.apis {
            let padding = String(repeating: " ", count: width - api.name.count)
            emit("  \(api.name):\(padding) \(sandbox.baseURL.absoluteString)\(api.path) (\(api.note))")
        }
        if let storage = sandbox.secondOrigin {
            emit("  storage host: \(storage.absoluteString) (where Basecamp's download_urls point)")
        }
        let signal = await signals.next()
        emit("api-sandbox received \(signal == SIGINT ? "SIGINT" : "SIGTERM"), shutting down")
        await sandbox.stop()
        emit("api-sandbox stopped")
    }

    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
