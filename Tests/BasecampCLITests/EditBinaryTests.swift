import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore
import Testing

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

    private static func stateFile() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "basecamp-edit-\(UUID().uuidString).json")
    }

    @Test("todos edit changes the due date and keeps the content and description")
    func todo() async throws {
        let state = Self.stateFile()
        let id = String(BasecampSandboxSeed.fluxCapacitorTodoID)
        let before = try await Self.run(["todos", "get", id], state: state).json(JSONValue.self)
        let edited = try await Self.run(["todos", "edit", id, "--due-on", "2026-03-01"], state: state)
        #expect(edited.exitCode == 0, "\(edited.stderr)")
        let after = try await Self.run(["todos", "get", id], state: state).json(JSONValue.self)
        #expect(after["dueOn"] == "2026-03-01")
        #expect(after["content"] == before["content"])
        #expect(after["description"] == before["description"])
        #expect(after["assignees"] == before["assignees"])
    }

    @Test("todolists edit renames a list and keeps its description")
    func todolist() async throws {
        let state = Self.stateFile()
        let id = String(BasecampSandboxSeed.hardwareTodolistID)
        let before = try await Self.run(["todolists", "get", id], state: state).json(JSONValue.self)
        let edited = try await Self.run(["todolists", "edit", id, "--name", "Gear"], state: state)
        #expect(edited.exitCode == 0, "\(edited.stderr)")
        let after = try await Self.run(["todolists", "get", id], state: state).json(JSONValue.self)
        #expect(after["name"] == "Gear")
        #expect(after["description"] == before["description"])
    }

    @Test("documents edit changes the title and keeps the content")
    func document() async throws {
        let state = Self.stateFile()
        let id = String(BasecampSandboxSeed.releaseNotesDocumentID)
        let edited = try await Self.run(["documents", "edit", id, "--title", "Release notes 1.1"], state: state)
        #expect(edited.exitCode == 0, "\(edited.stderr)")
        let after = try await Self.run(["documents", "get", id], state: state).json(JSONValue.self)
        #expect(after["title"] == "Release notes 1.1")
        #expect(after["content"] == "<div>Version 1.0: the flux capacitor ships.</div>")
    }

    @Test("messages edit changes the subject and keeps the content")
    func message() async throws {
        let state = Self.stateFile()
        let id = String(BasecampSandboxSeed.kickoffMessageID)
        let before = try await Self.run(["messages", "get", id], state: state).json(JSONValue.self)
        let edited = try await Self.run(["messages", "edit", id, "--subject", "Kickoff (moved)"], state: state)
        #expect(edited.exitCode == 0, "\(edited.stderr)")
        let after = try await Self.run(["messages", "get", id], state: state).json(JSONValue.self)
        #expect(after["subject"] == "Kickoff (moved)")
        #expect(after["content"] == before["content"])
    }

    @Test("schedules edit-entry changes the summary and keeps the times and description")
    func scheduleEntry() async throws {
        let state = Self.stateFile()
        let id = String(BasecampSandboxSeed.designReviewEntryID)
        let before = try await Self.run(["schedules", "get-entry", id], state: state).json(JSONValue.self)
        let edited = try await Self.run(["schedules", "edit-entry", id, "--summary", "Launch!"], state: state)
        #expect(edited.exitCode == 0, "\(edited.stderr)")
        let after = try await Self.run(["schedules", "get-entry", id], state: state).json(JSONValue.self)
        #expect(after["summary"] == "Launch!")
        #expect(after["description"] == "<div>Bring the prototype.</div>")
        for field in ["startsAt", "endsAt", "allDay", "participants"] {
            #expect(after[field] == before[field], "\(field)")
        }
    }

    @Test("cards edit changes the title and keeps the content and due date")
    func card() async throws {
        let state = Self.stateFile()
        let id = String(BasecampSandboxSeed.laptopCaseCardID)
        let edited = try await Self.run(["cards", "edit", id, "--title", "Ship it"], state: state)
        #expect(edited.exitCode == 0, "\(edited.stderr)")
        let after = try await Self.run(["cards", "get", id], state: state).json(JSONValue.self)
        #expect(after["title"] == "Ship it")
        #expect(after["content"] == "<div>Aluminium, matte.</div>")
        #expect(after["dueOn"] == "2026-02-20")
    }

    @Test("An edit that names no field is a usage error and sends nothing")
    func nothingToChange() async throws {
        let result = try await Self.run(["todos", "edit", "1"], state: Self.stateFile())
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("Name at least one field to change."))
    }
}
