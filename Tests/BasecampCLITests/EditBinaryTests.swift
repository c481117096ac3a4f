import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

@testable import BasecampCLI

/// The `edit` commands as real processes against the sandbox: the named fields change, the rest
/// read back as they were.
@Suite("Safe edits with the built basecamp executable")
struct EditBinaryTests {
    private static func run(_ arguments: [String], state: URL) async throws -> CommandResult {
        try await runBuiltBasecamp(
            ["--sandbox", "--json"] + arguments,
            variables: ["BASECAMP_SANDBOX_STATE": state.path]
        )
    }

    /// The record as `get` reads it before and after `edit` with `arguments`, in a fresh state.
    private static func edited(
        _ resource: String,
        _ id: Int,
        _ arguments: [String],
        get: String = "get",
        edit: String = "edit"
    ) async throws -> (before: JSONValue, after: JSONValue) {
        let folder = try ScratchFolder("basecamp-edit")
        defer { folder.remove() }
        let state = folder.file("state.json")
        let before = try await run([resource, get, String(id)], state: state).json(JSONValue.self)
        let edited = try await run([resource, edit, String(id)] + arguments, state: state)
        #expect(edited.exitCode == 0, "\(edited.stderr)")
        let after = try await run([resource, get, String(id)], state: state).json(JSONValue.self)
        return (before, after)
    }

    @Test("todos edit changes the due date and keeps the content and description")
    func todo() async throws {
        let (before, after) = try await Self.edited(
            "todos",
            BasecampSandboxSeed.fluxCapacitorTodoID,
            ["--due-on", "2026-03-01"]
        )
        #expect(after["dueOn"] == "2026-03-01")
        #expect(after["content"] == before["content"])
        #expect(after["description"] == before["description"])
        #expect(after["assignees"] == before["assignees"])
    }

    @Test("todolists edit renames a list and keeps its description")
    func todolist() async throws {
        let (before, after) = try await Self.edited(
            "todolists",
            BasecampSandboxSeed.hardwareTodolistID,
            ["--name", "Gear"]
        )
        #expect(after["name"] == "Gear")
        #expect(after["description"] == before["description"])
    }

    @Test("documents edit changes the title and keeps the content")
    func document() async throws {
        let (_, after) = try await Self.edited(
            "documents",
            BasecampSandboxSeed.releaseNotesDocumentID,
            ["--title", "Release notes 1.1"]
        )
        #expect(after["title"] == "Release notes 1.1")
        #expect(after["content"] == "<div>Version 1.0: the flux capacitor ships.</div>")
    }

    @Test("messages edit changes the subject and keeps the content")
    func message() async throws {
        let (before, after) = try await Self.edited(
            "messages",
            BasecampSandboxSeed.kickoffMessageID,
            ["--subject", "Kickoff (moved)"]
        )
        #expect(after["subject"] == "Kickoff (moved)")
        #expect(after["content"] == before["content"])
    }

    @Test("schedules edit-entry changes the summary and keeps the times and description")
    func scheduleEntry() async throws {
        let (before, after) = try await Self.edited(
            "schedules",
            BasecampSandboxSeed.designReviewEntryID,
            ["--summary", "Launch!"],
            get: "get-entry",
            edit: "edit-entry"
        )
        #expect(after["summary"] == "Launch!")
        #expect(after["description"] == "<div>Bring the prototype.</div>")
        for field in ["allDay", "participants"] {
            #expect(after[field] == before[field], "\(field)")
        }
        // The same moments, whether or not the answer spells out their milliseconds.
        for field in ["startsAt", "endsAt"] {
            let moments = [before[field], after[field]].map { $0?.stringValue.flatMap(Date.init(iso8601Timestamp:)) }
            #expect(moments[0] != nil && moments[0] == moments[1], "\(field)")
        }
    }

    @Test("cards edit changes the title and keeps the content and due date")
    func card() async throws {
        let (_, after) = try await Self.edited("cards", BasecampSandboxSeed.laptopCaseCardID, ["--title", "Ship it"])
        #expect(after["title"] == "Ship it")
        #expect(after["content"] == "<div>Aluminium, matte.</div>")
        #expect(after["dueOn"] == "2026-02-20")
    }

    @Test("An edit that names no field is a usage error and sends nothing")
    func nothingToChange() async throws {
        let folder = try ScratchFolder("basecamp-edit")
        defer { folder.remove() }
        let result = try await Self.run(["todos", "edit", "1"], state: folder.file("state.json"))
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("Name at least one field to change"))
    }

    /// Each edit command's own help example, without `--sandbox`.
    static let editExamples: [[String]] = ServiceCommands.all.flatMap { group in
        group.configuration.subcommands.compactMap { command -> [String]? in
            guard command is any EditCommand.Type else { return nil }
            let lines = command.configuration.discussion.split(separator: "\n")
            guard let index = lines.firstIndex(of: "Example:"), index + 1 < lines.count else { return nil }
            let words = ShellWords.split(String(lines[index + 1].dropFirst("  basecamp ".count)))
            return words.filter { $0 != "--sandbox" }
        }
    }

    @Test("Every edit command has an example, and there is one for each update with write semantics")
    func editCommandsExist() {
        #expect(Self.editExamples.count == 8)
    }

    /// A whole-record update is one read and one write; a patch is one write. The sandbox counts
    /// what reached it.
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Each edit sends exactly one GET and one PUT (a patch: one PUT)", arguments: editExamples)
    func requestCount(_ example: [String]) async throws {
        try await withBasecampSandbox { sandbox, baseURL in
            let result = try await runBuiltBasecamp(example, variables: credentials(baseURL))
            #expect(result.exitCode == 0, "\(example): \(result.stderr)")
            let command = try #require(EditFieldTests.editCommands["\(example[0]) \(example[1])"])
            let counters = sandbox.counters()
            let expected = command.operation.replacesWholeRecord ? 2 : 1
            #expect(counters.totalRequests == expected, "\(example): \(counters.requestsByPath)")
            // Read and write address the same record.
            #expect(counters.requestsByPath.values.sorted() == [expected], "\(counters.requestsByPath)")
        }
    }
}
