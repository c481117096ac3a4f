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
}
