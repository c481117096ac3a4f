import CLISupport
import CLISupportTesting
import Foundation
import Testing

/// `markbook backup download` as a process against `markbook --sandbox`.
@Suite("markbook backup download")
struct BackupDownloadTests {
    static func download(_ arguments: [String], backup: String) async throws -> CommandResult {
        try await runBuiltMarkbook(
            ["--sandbox", "backup", "download"] + arguments,
            variables: ["MARKBOOK_SANDBOX_BACKUP": backup]
        )
    }

    @Test("A ready backup is saved whole under the target name: a zip that unzip reads, no temporary file left")
    func ready() async throws {
        let folder = try ScratchFolder("markbook-backup")
        defer { folder.remove() }
        let target = folder.file("backup.zip")
        let result = try await Self.download(["--output", target.path], backup: "ready")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == target.path + "\n")
        #expect(result.stderr.hasPrefix("Saved the backup ("))
        let bytes = try Data(contentsOf: target)
        #expect(bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]), "a zip's local file header")
        #expect(try folder.names() == ["backup.zip"])
        if let listing = try await Self.unzipListing(target) {
            #expect(listing.status == 0, "unzip -l: \(listing.output)")
            #expect(listing.output.contains("manifest.json"), "\(listing.output)")
        }

        let kept = try await Self.download(["--output", target.path], backup: "ready")
        #expect(kept.exitCode == 64, "an existing file is kept without --force")
        #expect(kept.stderr.contains("already exists"))
        #expect(try Data(contentsOf: target) == bytes)

        let json = try await Self.download(["--json", "--output", target.path, "--force"], backup: "ready")
        #expect(json.exitCode == 0, "\(json.stderr)")
        struct Saved: Decodable {
            var path: String
            var bytes: Int
        }
        let saved = try json.json(Saved.self)
        #expect(saved.path == target.path)
        #expect(saved.bytes == (try Data(contentsOf: target)).count)
    }

    @Test("Pending is exit 75 and no backup exit 11, each with its own message and code; nothing is written")
    func unavailable() async throws {
        let folder = try ScratchFolder("markbook-backup")
        defer { folder.remove() }
        let target = folder.file("backup.zip")

        let pending = try await Self.download(["--output", target.path], backup: "pending")
        #expect(pending.exitCode == 75)
        #expect(pending.stdout.isEmpty)
        #expect(pending.stderr.contains("The backup is not built yet"))
        #expect(pending.stderr.contains("Try again tomorrow"))

        let none = try await Self.download(["--json", "--output", target.path], backup: "none")
        #expect(none.exitCode == 11)
        let report = try none.errorReport()
        #expect(report.code == "no_backup")
        #expect(report.exitCode == 11)
        #expect(report.hint?.contains("markbook backup schedule") == true)

        let pendingJSON = try await Self.download(["--json"], backup: "pending")
        #expect(try pendingJSON.errorReport().code == "backup_pending")
        #expect(try pendingJSON.errorReport().retryable)
        #expect(try folder.names().isEmpty)

        // A target directory that does not exist is found before the URL (valid for an hour) is fetched.
        let nowhere = folder.file("missing/backup.zip")
        let refused = try await Self.download(["--output", nowhere.path], backup: "ready")
        #expect(refused.exitCode == 1)
        #expect(refused.stderr.contains("Cannot write \(nowhere.path): the folder"))
        #expect(refused.stderr.contains("does not exist"))
    }

    /// `unzip -l FILE`, or `nil` when unzip is not installed.
    static func unzipListing(_ file: URL) async throws -> (status: Int32, output: String)? {
        let unzip = ["/usr/bin/unzip", "/bin/unzip", "/usr/local/bin/unzip"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let unzip else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: unzip)
        process.arguments = ["-l", file.path]
        let result = try await process.runToEnd()
        return (result.exitCode, result.stdout + result.stderr)
    }
}
