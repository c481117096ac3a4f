import APISandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

/// A command cancelled while a request is at the server: reported as `cancelled`, naming a write
/// that may have been applied.
@Suite("A cancelled command", .timeLimit(.minutes(1)))
struct CancellationTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Cancelled mid-request: exit 130, code cancelled; a write cut short is named as maybe applied, a read is not",
        arguments: [true, false]
    )
    func cutShort(post: Bool) async throws {
        try await Sandbox.withRunning { sandbox in
            let hold = "cancel-\(post)"
            let arguments =
                ["--base-url", sandbox.baseURL.absoluteString, "--json", "fetch", "--path", "_test/hold/\(hold)"]
                + (post ? ["--post"] : [])
            let run = Task { await CLIRunner.capture(TestTool.self, arguments: arguments) }
            try await sandbox.waitUntilWaiting(onHold: hold)
            run.cancel()
            let result = await run.value
            sandbox.release(hold)

            #expect(result.exitCode == ExitPolicy.cancelled)
            let report = try result.errorReport()
            #expect(report.code == "cancelled")
            let url = sandbox.baseURL.appending(path: "_test/hold/\(hold)").absoluteString
            if post {
                #expect(report.hint?.contains("may or may not have applied POST \(url)") == true, "\(report)")
            } else {
                #expect(report.hint == nil)
            }
        }
    }

    @Test(
        "Cancelled while stdin has nothing to read yet: the command ends at once, exit 130; read, it prints what came"
    )
    func waitingForStandardInput() async throws {
        let (entered, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let run = Task {
            await CLIRunner.capture(TestTool.self, arguments: ["--json", "echo"]) { environment in
                environment.readStandardInput = { _ in
                    entered.signal()
                    release.wait()
                    return Data("late".utf8)
                }
            }
        }
        await Task.detached { entered.wait() }.value
        run.cancel()
        let result = await run.value
        release.signal()
        #expect(result.exitCode == ExitPolicy.cancelled)
        #expect(try result.errorReport().code == "cancelled")
        #expect(result.stdout.isEmpty)

        let read = await CLIRunner.capture(TestTool.self, arguments: ["echo"]) { environment in
            environment.readStandardInput = { _ in Data("hello".utf8) }
        }
        #expect(read.exitCode == 0)
        #expect(read.stdout == "read: hello\n")
    }
}
