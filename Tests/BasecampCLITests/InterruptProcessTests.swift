import APISandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

/// Ctrl-C on an ordinary command, as a real process: the command is cancelled and reported, not
/// killed where it stood.
@Suite("Ctrl-C and SIGTERM with the built basecamp executable", .timeLimit(.minutes(1)))
struct InterruptProcessTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "A signal mid-request cancels the command: exit 130, and with --json one cancelled object on stderr",
        arguments: [SIGINT, SIGTERM]
    )
    func cancelsTheCommand(signal: Int32) async throws {
        try await withBasecampSandbox { sandbox, baseURL in
            let hold = "interrupt-\(signal)"
            // The sandbox keeps the answer back until released: the request is in flight.
            let url = sandbox.baseURL.appending(path: "_test/hold/\(hold)").absoluteString
            let target = try ScratchFolder("basecamp-interrupt").file("bytes.bin")
            let download = try RunningExecutable(
                "basecamp",
                arguments: ["--json", "download", url, "--output", target.path],
                variables: credentials(baseURL)
            )
            try await sandbox.waitUntilWaiting(onHold: hold)
            let status = try await signal == SIGINT ? download.interrupt() : download.terminate()
            sandbox.release(hold)

            #expect(status == ExitPolicy.cancelled, "\(download.stderr.text)")
            let last = download.stderr.text.split(separator: "\n").last.map(String.init) ?? ""
            let report = try JSONValue(parsing: Data(last.utf8))
            #expect(report["code"] == "cancelled")
            #expect(report["exitCode"] == .integer(Int(ExitPolicy.cancelled)))
            #expect(download.stdout.text.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: target.path), "nothing half-written under the name")
        }
    }

    /// Whether a thread of `process` is blocked reading its stdin (Linux: `read` is syscall 0
    /// there, with descriptor 0 as its first argument).
    static func isReadingStandardInput(_ process: Process) -> Bool {
        let tasks = "/proc/\(process.processIdentifier)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return threads.contains { thread in
            let syscall = (try? String(contentsOfFile: "\(tasks)/\(thread)/syscall", encoding: .utf8)) ?? ""
            return syscall.hasPrefix("0 0x0 ")
        }
    }

    @Test(
        "Waiting for --body on stdin, the first Ctrl-C ends the command: exit 130 and a cancelled object",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task"), "reads the child's syscalls in /proc")
    )
    func interruptedWhileReadingStandardInput() async throws {
        let command = try RunningExecutable(
            "basecamp",
            arguments: ["--json", "api", "CreateTodo", "--param", "todolistId=1", "--body", "-"],
            keepsStandardInputOpen: true
        )
        let deadline = ContinuousClock.now + .seconds(30)
        while !Self.isReadingStandardInput(command.process), command.process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(Self.isReadingStandardInput(command.process), "basecamp never blocked reading stdin")
        let status = try await command.interrupt()

        #expect(status == ExitPolicy.cancelled, "\(command.stderr.text)")
        let last = command.stderr.text.split(separator: "\n").last.map(String.init) ?? ""
        let report = try JSONValue(parsing: Data(last.utf8))
        #expect(report["code"] == "cancelled", "killed by the signal rather than cancelled: \(command.stderr.text)")
    }
}
