import CLISupport
import Foundation
import HTTPCore
import Testing

/// The README's flow, run as real processes of the built `basecamp`.
@Suite("The built basecamp executable")
struct BinaryTests {
    @Test("basecamp --sandbox projects list")
    func projectsList() async throws {
        let result = try await runBuiltBasecamp(["--sandbox", "projects", "list"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("        ID  NAME  "))
        #expect(result.stdout.contains("2085958504  The Leto Laptop"))
    }

    @Test(
        "todos create, then todos list in a second process, through BASECAMP_SANDBOX_STATE; control characters in the API's text are shown, not obeyed"
    )
    func createThenList() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "basecamp-bin-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let state = ["BASECAMP_SANDBOX_STATE": file.path]
        // Retitles the terminal window, then clears the screen, if printed as it is.
        let content = "Order the cake\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let created = try await runBuiltBasecamp(
            ["--sandbox", "todos", "create", "--todolist", "1069479341", "--content", content],
            variables: state
        )
        #expect(created.exitCode == 0, "\(created.stderr)")
        #expect(created.stdout.contains("Order the cake^[]0;pwned^G^[[2J"))
        let listed = try await runBuiltBasecamp(
            ["--sandbox", "todos", "list", "--project", "2085958504", "--todolist", "1069479341"],
            variables: state
        )
        #expect(listed.exitCode == 0)
        #expect(listed.stdout.contains("Order the cake^[]0;pwned^G^[[2J"))
        #expect(!(created.stdout + listed.stdout).unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
    }

    @Test("api GetProject prints JSON; a missing to-do exits 2; a bad flag exits 64")
    func apiAndErrors() async throws {
        let project = try await runBuiltBasecamp(["--sandbox", "api", "GetProject", "--param", "projectId=2085958504"])
        #expect(project.exitCode == 0)
        #expect(try project.json(JSONValue.self)["name"] == "The Leto Laptop")
        let missing = try await runBuiltBasecamp(["--sandbox", "--json", "todos", "get", "1"])
        #expect(missing.exitCode == 2)
        #expect(try missing.errorReport().code == "not_found")
        let bad = try await runBuiltBasecamp(["todos", "list", "--todolist", "many"])
        #expect(bad.exitCode == 64)
        #expect(bad.stderr.hasPrefix("Error: The value 'many' is invalid for '--todolist <id>'"))
    }
}
