import CLISupport
import CLISupportTesting
import Foundation
import Testing

/// `BASECAMP_SANDBOX_STATE` failing loudly, as a shell sees it.
@Suite("basecamp --sandbox with a state file that cannot be used")
struct StateFileTests {
    @Test("A damaged file, a file from another layout, or an unwritable directory: exit 1 naming the file")
    func failures() async throws {
        let folder = try ScratchFolder("basecamp-state")
        defer { folder.remove() }
        let file = folder.file("account.json")

        try Data("{ half a file".utf8).write(to: file)
        let damaged = try await runBuiltBasecamp(
            ["--sandbox", "projects", "list"],
            variables: ["BASECAMP_SANDBOX_STATE": file.path]
        )
        #expect(damaged.exitCode == 1)
        #expect(damaged.stdout.isEmpty)
        #expect(
            damaged.stderr.hasPrefix("error: The sandbox state file \(file.path) is damaged: it is not valid JSON.\n")
        )
        #expect(try String(contentsOf: file, encoding: .utf8) == "{ half a file")

        try Data(#"{"version": 99}"#.utf8).write(to: file)
        let other = try await runBuiltBasecamp(
            ["--sandbox", "projects", "list"],
            variables: ["BASECAMP_SANDBOX_STATE": file.path]
        )
        #expect(other.exitCode == 1)
        #expect(
            other.stderr.hasPrefix(
                "error: The sandbox state file \(file.path) is from another version of the sandbox: it holds layout 99, "
                    + "this sandbox reads layout 2; delete it to start afresh.\n"
            )
        )

        let nowhere = folder.file("missing/account.json")
        let unwritable = try await runBuiltBasecamp(
            ["--sandbox", "--json", "projects", "list"],
            variables: ["BASECAMP_SANDBOX_STATE": nowhere.path]
        )
        #expect(unwritable.exitCode == 1)
        #expect(try unwritable.errorReport().message.contains(nowhere.path))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A sandbox switch it does not understand stops --sandbox with a configuration error naming it")
    func badSwitch() async throws {
        let result = await basecamp(
            ["--sandbox", "--json", "projects", "list"],
            variables: ["BASECAMP_SANDBOX_STRICT_TOKENS": "please"]
        )
        #expect(result.exitCode == 1)
        #expect(result.stdout.isEmpty)
        let report = try result.errorReport()
        #expect(report.code == "configuration")
        #expect(report.message.contains("BASECAMP_SANDBOX_STRICT_TOKENS='please' is not understood"))
        #expect(report.hint == "Unset BASECAMP_SANDBOX_STRICT_TOKENS or give it a value it takes.")
    }
}
