import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

/// `basecamp upload`, `download` and `uploads replace` as real processes against the sandbox,
/// whose state file carries the account from one process to the next.
@Suite("Uploads and downloads with the built basecamp executable")
struct FilesBinaryTests {
    private struct Workspace {
        let scratch: ScratchFolder
        var folder: URL { scratch.url }
        var state: [String: String] { ["BASECAMP_SANDBOX_STATE": scratch.path("state.json")] }

        init() throws { scratch = try ScratchFolder("basecamp-files") }

        func path(_ name: String) -> String { scratch.path(name) }
    }

    private static let project = String(BasecampSandboxSeed.letoLaptopProjectID)
    private static let vault = String(BasecampSandboxSeed.letoLaptopVaultID)
    private static let logo = String(BasecampSandboxSeed.companyLogoUploadID)
    private static let logoBytes = Data((0..<BasecampSandboxSeed.companyLogoByteSize).map { UInt8($0 % 251) })

    private static func run(
        _ arguments: [String],
        _ workspace: Workspace,
        stdout: String? = nil
    ) async throws
        -> CommandResult
    {
        try await BuiltExecutable.run(
            "basecamp",
            arguments: ["--sandbox"] + arguments,
            variables: workspace.state,
            standardOutput: stdout.map { .file($0) } ?? .captured
        )
    }

    @Test("upload FILE makes one upload; uploads list shows it; download returns the same bytes")
    func uploadListDownload() async throws {
        let workspace = try Workspace()
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: URL(fileURLWithPath: workspace.path("budget.xlsx")))

        let uploaded = try await Self.run(
            ["--json", "upload", workspace.path("budget.xlsx"), "--project", Self.project, "--description", "Q3"],
            workspace
        )
        #expect(uploaded.exitCode == 0, "\(uploaded.stderr)")
        #expect(!uploaded.stderr.contains("\r"), "no progress line when stderr is not a terminal")
        let upload = try uploaded.json(JSONValue.self)
        #expect(upload["filename"] == "budget.xlsx")
        #expect(upload["contentType"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        #expect(upload["byteSize"] == 200_000)
        let id = try #require(upload["id"]?.intValue)

        let listed = try await Self.run(["uploads", "list", "--vault", Self.vault], workspace)
        #expect(listed.exitCode == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("budget.xlsx"))

        let downloaded = try await Self.run(
            ["download", String(id), "--output", workspace.path("copy.xlsx")],
            workspace
        )
        #expect(downloaded.exitCode == 0, "\(downloaded.stderr)")
        #expect(downloaded.stderr.isEmpty, "no progress line when stderr is not a terminal")
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("copy.xlsx"))) == bytes)
        #expect(!FileManager.default.fileExists(atPath: workspace.path("copy.xlsx.partial")))
    }

    @Test("download --output - writes the file's bytes to stdout and nothing else")
    func downloadToStdout() async throws {
        let workspace = try Workspace()
        let out = workspace.path("stdout.bin")
        let result = try await Self.run(["download", Self.logo, "--output", "-"], workspace, stdout: out)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Self.logoBytes)
    }

    /// What an interrupted run leaves beside its partial file: the storage's `ETag`, then the
    /// path it came from (the port of each `--sandbox` run's storage differs; the path does not).
    /// A file written before resources were recorded has the `ETag` alone.
    static let validatorFiles = [
        (validator: "\"\(sgid)\"\n/basecamp/_storage/\(sgid)", resumes: true),
        (validator: "\"\(sgid)\"", resumes: true),
        (validator: "\"\(sgid)\"\n/basecamp/_storage/another-file", resumes: false),
    ]
    private static let sgid = BasecampSandboxSeed.companyLogoAttachmentSGID

    @Test(
        "An interrupted download resumes from its partial file in a later run, unless that was another file's",
        arguments: validatorFiles
    )
    func resumed(validator: String, resumes: Bool) async throws {
        let workspace = try Workspace()
        let target = workspace.path("logo.png")
        try Self.logoBytes.prefix(5000).write(to: URL(fileURLWithPath: target + ".partial"))
        try Data(validator.utf8).write(to: URL(fileURLWithPath: target + ".partial.validator"))
        let result = try await Self.run(["download", Self.logo, "--output", target], workspace)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("resumed at 4.9 KiB") == resumes, "\(result.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Self.logoBytes)
        guard resumes else { return }

        try Data("stale".utf8).write(to: URL(fileURLWithPath: target + ".partial"))
        let fresh = try await Self.run(
            ["download", Self.logo, "--output", target, "--no-resume", "--force"],
            workspace
        )
        #expect(fresh.exitCode == 0, "\(fresh.stderr)")
        #expect(!fresh.stdout.contains("resumed"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Self.logoBytes)
    }

    @Test("uploads replace gives the upload new bytes, which download then returns")
    func replace() async throws {
        let workspace = try Workspace()
        try Data("second version".utf8).write(to: URL(fileURLWithPath: workspace.path("logo-v2.png")))
        let replaced = try await Self.run(["uploads", "replace", Self.logo, workspace.path("logo-v2.png")], workspace)
        #expect(replaced.exitCode == 0, "\(replaced.stderr)")
        #expect(replaced.stdout.contains("as upload \(Self.logo)"))
        let downloaded = try await Self.run(["download", Self.logo, "--output", workspace.path("v2.png")], workspace)
        #expect(downloaded.exitCode == 0, "\(downloaded.stderr)")
        #expect(try String(contentsOfFile: workspace.path("v2.png"), encoding: .utf8) == "second version")
    }

    #if os(Linux)
    @Test(
        "On a terminal, download draws a progress line and erases it",
        .enabled(if: FileManager.default.isExecutableFile(atPath: TerminalBinaryTests.script))
    )
    func progressOnTerminal() async throws {
        let workspace = try Workspace()
        let transcript = try await TerminalBinaryTests.onTerminal(
            "--sandbox download \(Self.logo) --output \(workspace.path("logo.png"))"
        )
        #expect(transcript.contains("Downloading company-logo.png: 20.7 KiB of 20.7 KiB (100%)"))
        #expect(transcript.contains("\r\u{1B}[2K"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("logo.png"))) == Self.logoBytes)
    }
    #endif

    @Test("A missing file is a usage error (64); a missing upload is not found (2)")
    func failures() async throws {
        let workspace = try Workspace()
        let missingFile = try await Self.run(
            ["upload", workspace.path("nope.txt"), "--project", Self.project],
            workspace
        )
        #expect(missingFile.exitCode == 64)
        let missingUpload = try await Self.run(["download", "1", "--output", workspace.path("x")], workspace)
        #expect(missingUpload.exitCode == 2)
        #expect(!FileManager.default.fileExists(atPath: workspace.path("x")))
    }

    @Test("Without --output, a file named after the upload that is already there is kept unless --force")
    func nameFromServerKept() async throws {
        let workspace = try Workspace()
        let saved = workspace.path("company-logo.png")
        let first = try await runBuiltBasecamp(["--sandbox", "download", Self.logo], in: workspace.folder)
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout == "Saved company-logo.png: 20.7 KiB\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: saved)) == Self.logoBytes)
        let json = try await runBuiltBasecamp(
            ["--sandbox", "--json", "download", Self.logo, "--output", "again.png"],
            in: workspace.folder
        )
        #expect(json.exitCode == 0, "\(json.stderr)")
        let object = try JSONValue(parsing: Data(json.stdout.utf8))
        #expect(object["file"] == "again.png")
        #expect(object["byteCount"]?.intValue == Self.logoBytes.count)

        try Data("my own logo".utf8).write(to: URL(fileURLWithPath: saved))
        let kept = try await runBuiltBasecamp(["--sandbox", "--json", "download", Self.logo], in: workspace.folder)
        #expect(kept.exitCode == 64, "\(kept.stderr)")
        let report = try kept.errorReport()
        #expect(report.message == "company-logo.png already exists.")
        #expect(report.hint?.contains("--force") == true)
        #expect(try String(contentsOfFile: saved, encoding: .utf8) == "my own logo")

        let replaced = try await runBuiltBasecamp(
            ["--sandbox", "download", Self.logo, "--force"],
            in: workspace.folder
        )
        #expect(replaced.exitCode == 0, "\(replaced.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: saved)) == Self.logoBytes)
    }
}

/// `upload --project` against a project whose Docs & Files is switched off: the sandbox's
/// answer with the vault's dock item disabled, as `DisableTool` leaves it on the real service.
@Suite("upload --project and the dock")
struct UploadDockTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A switched-off Docs & Files is not uploaded to: exit 7, and no upload is sent")
    func disabledVault() async throws {
        let project = String(BasecampSandboxSeed.letoLaptopProjectID)
        let file = FileManager.default.temporaryDirectory.appending(path: "dock-\(UUID().uuidString).txt")
        try Data("notes".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withBasecampSandbox { _, baseURL in
            let sandbox = URLSessionTransport()
            let transport = ScriptedTransport { recorded in
                var answer = try await sandbox.send(recorded.request, body: recorded.body, options: recorded.options)
                guard recorded.url.path.hasSuffix("/projects/\(project)"),
                    case .object(var record)? = try? JSONValue(parsing: answer.body),
                    case .array(let dock)? = record["dock"]
                else { return answer }
                record["dock"] = .array(
                    dock.map { item in
                        guard case .object(var fields) = item, fields["name"] == "vault" else { return item }
                        fields["enabled"] = false
                        return .object(fields)
                    }
                )
                answer.body = JSONValue.object(record).encoded()
                return answer
            }
            let result = await basecamp(["upload", file.path, "--project", project], variables: credentials(baseURL)) {
                $0.transport = transport
            }
            #expect(result.exitCode == 7)
            #expect(result.stderr.contains("has no Docs & Files switched on"))
            #expect(!transport.requests.contains { $0.request.method == .post })
        }
    }
}
