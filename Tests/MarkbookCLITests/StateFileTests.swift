import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

/// `MARKBOOK_SANDBOX_STATE`, as separate processes of the built `markbook` use it.
@Suite("markbook --sandbox with a state file")
struct StateFileTests {
    @Test("A change made by one command is seen by the next")
    func keeps() async throws {
        let folder = try ScratchFolder("markbook-state")
        defer { folder.remove() }
        let state = ["MARKBOOK_SANDBOX_STATE": folder.path("school.json")]
        let created = try await runBuiltMarkbook(
            ["--sandbox", "class", "create", "1000001", "--name", "10MAT1-Z"],
            variables: state
        )
        #expect(created.exitCode == 0, "\(created.stderr)")
        let shown = try await runBuiltMarkbook(
            ["--sandbox", "--format", "json", "--fields", "classes.name", "show", "1000001"],
            variables: state
        )
        #expect(shown.exitCode == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("10MAT1-Z"))
        let fresh = try await runBuiltMarkbook(["--sandbox", "--json", "show", "1000001"])
        #expect(!fresh.stdout.contains("10MAT1-Z"))
    }

    @Test("Parallel writers on one file: every process exits 0, every change is kept, every key is unique")
    func parallelWriters() async throws {
        let folder = try ScratchFolder("markbook-state")
        defer { folder.remove() }
        let state = ["MARKBOOK_SANDBOX_STATE": folder.path("school.json")]
        struct Created: Decodable {
            var studentKey: Int?
            var classKey: Int?
        }
        let students = (1...6).map { index in
            [
                "--sandbox", "--json", "student", "create", "1000001", "--sid", "20000\(index)", "--family", "Writer",
                "--given", "Number\(index)", "--gender", "other", "--class", "3001",
            ]
        }
        let classes = (1...4).map { ["--sandbox", "--json", "class", "create", "1000001", "--name", "PAR-\($0)"] }
        let results = try await withThrowingTaskGroup(of: CommandResult.self) { group in
            for arguments in students + classes {
                group.addTask { try await runBuiltMarkbook(arguments, variables: state) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.exitCode == 0 }, "\(results.map(\.stderr))")
        let created = try results.map { try $0.json(Created.self) }
        let studentKeys = created.compactMap(\.studentKey)
        let classKeys = created.compactMap(\.classKey)
        #expect(studentKeys.count == 6 && Set(studentKeys).count == 6, "student keys handed out once: \(studentKeys)")
        #expect(classKeys.count == 4 && Set(classKeys).count == 4, "class keys handed out once: \(classKeys)")

        let shown = try await runBuiltMarkbook(["--sandbox", "--json", "show", "1000001"], variables: state)
        #expect(shown.exitCode == 0, "\(shown.stderr)")
        for index in 1...6 { #expect(shown.stdout.contains("\"20000\(index)\""), "student \(index) kept") }
        for index in 1...4 { #expect(shown.stdout.contains("\"PAR-\(index)\""), "class \(index) kept") }
    }

    @Test("An empty file, as mktemp makes it, is a new state: reads work and the first change fills it")
    func emptyFile() async throws {
        let folder = try ScratchFolder("markbook-state")
        defer { folder.remove() }
        let file = folder.file("school.json")
        #expect(
            FileManager.default.createFile(atPath: file.path, contents: Data(), attributes: [.posixPermissions: 0o600])
        )
        let state = ["MARKBOOK_SANDBOX_STATE": file.path]
        let listed = try await runBuiltMarkbook(["--sandbox", "list"], variables: state)
        #expect(listed.exitCode == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("10MAT1 Mathematics"))
        let created = try await runBuiltMarkbook(
            ["--sandbox", "class", "create", "1000001", "--name", "10MAT1-E"],
            variables: state
        )
        #expect(created.exitCode == 0, "\(created.stderr)")
        let shown = try await runBuiltMarkbook(["--sandbox", "--json", "show", "1000001"], variables: state)
        #expect(shown.stdout.contains("10MAT1-E"))
        #expect(try Data(contentsOf: file).count > 100)
    }

    @Test("A damaged file is exit 1 naming it, and is left as it was")
    func damaged() async throws {
        let folder = try ScratchFolder("markbook-state")
        defer { folder.remove() }
        let file = folder.file("school.json")
        try Data(#"{"version": 1, "world": {"schoolName": 3}}"#.utf8).write(to: file)
        let result = try await runBuiltMarkbook(
            ["--sandbox", "list"],
            variables: ["MARKBOOK_SANDBOX_STATE": file.path]
        )
        #expect(result.exitCode == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "error: The sandbox state file \(file.path) is damaged: world.schoolName has the wrong type.\n"
            )
        )
        #expect(result.stderr.contains("hint: Fix the file or delete it"))
        #expect(try String(contentsOf: file, encoding: .utf8) == #"{"version": 1, "world": {"schoolName": 3}}"#)
    }

    @Test("A path that cannot be written is exit 1 naming it; with --json the usual error object")
    func unwritable() async throws {
        let missing = FileManager.default.temporaryDirectory.appending(
            path: "no-such-dir-\(UUID().uuidString)/school.json"
        )
        let result = try await runBuiltMarkbook(
            ["--sandbox", "--json", "users"],
            variables: ["MARKBOOK_SANDBOX_STATE": missing.path]
        )
        #expect(result.exitCode == 1)
        let report = try result.errorReport()
        #expect(report.message.hasPrefix("Cannot write the sandbox state file \(missing.path): the directory"))
        #expect(report.message.hasSuffix("does not exist."))
    }
}
