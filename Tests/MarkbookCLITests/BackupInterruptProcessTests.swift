import APISandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import MarkbookSandbox
import Testing

/// Ctrl-C while `markbook backup download` is writing the school's zip, as a real process.
@Suite("Ctrl-C during markbook backup download", .timeLimit(.minutes(1)))
struct BackupInterruptProcessTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Interrupted halfway through the zip: exit 130, a cancelled object, and no file of it left anywhere",
        arguments: ["file", "stdout"]
    )
    func interruptedMidFile(target: String) async throws {
        let hold = "backup-\(target)"
        let module = MarkbookSandboxModule(
            account: CLIAccount.account,
            options: MarkbookSandboxOptions(backup: .ready, backupHold: hold)
        )
        let folder = try ScratchFolder("markbook-backup-interrupt")
        defer { folder.remove() }
        // A temporary folder of its own, where the zip is staged for standard output.
        let temporary = try ScratchFolder("markbook-backup-tmp")
        defer { temporary.remove() }
        let output = target == "file" ? folder.file("backup.zip").path : "-"
        try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [module])) { sandbox in
            let baseURL = sandbox.baseURL.appending(path: MarkbookSandboxModule.defaultBasePath).absoluteString
            let download = try RunningExecutable(
                "markbook",
                arguments: ["--base-url", baseURL, "--json", "backup", "download", "--output", output],
                variables: CLIAccount.variables.merging(["TMPDIR": temporary.url.path]) { $1 }
            )
            // Half the zip has gone out; the rest waits on the hold.
            try await sandbox.waitUntilWaiting(onHold: hold)
            if target == "file" {
                let deadline = ContinuousClock.now + .seconds(20)
                while try folder.names().isEmpty, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(try !folder.names().isEmpty, "the first half is on disk before the interrupt")
            } else {
                // Staged in the shared temporary folder, where only this user may read the school's data.
                let deadline = ContinuousClock.now + .seconds(20)
                while try temporary.names().isEmpty, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let staged = temporary.file(try #require(try temporary.names().first))
                let mode = try FileManager.default.attributesOfItem(atPath: staged.path)[.posixPermissions] as? Int
                #expect(mode == 0o600, "\(staged.path)")
            }
            let status = try await download.interrupt()
            sandbox.release(hold)

            #expect(status == ExitPolicy.cancelled, "\(download.stderr.text)")
            let last = download.stderr.text.split(separator: "\n").last.map(String.init) ?? ""
            #expect(try JSONValue(parsing: Data(last.utf8))["code"] == "cancelled", "\(download.stderr.text)")
            #expect(try folder.names().isEmpty, "no zip, staging or partial file beside the target")
            #expect(try temporary.names().isEmpty, "no staging file in the temporary folder")
        }
    }
}
