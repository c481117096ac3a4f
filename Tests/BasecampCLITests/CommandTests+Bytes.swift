import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import BasecampCLI

/// What `basecamp` sends and prints byte for byte: a file streamed as a body, a timestamp's
/// fraction of a second.
extension CommandTests {
    @Test("attachments create --file sends the file's bytes, typed by its name, read as they are sent")
    func attachmentFromFile() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "logo-\(UUID().uuidString).png")
        let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = ScriptedTransport([.json(["attachable_sgid": "BAh-file-1"], status: 201)])
        let variables = credentials("https://3.basecampapi.com").merging(["BASECAMP_USER_AGENT": "t (t@example.com)"]) {
            $1
        }
        let result = await basecamp(
            ["--json", "attachments", "create", "--name", "logo.png", "--file", file.path],
            variables: variables
        ) { $0.transport = transport }
        #expect(result.exitCode == 0, "\(result.stderr)")
        let sent = try #require(transport.requests.first)
        #expect(sent.body == bytes)
        #expect(sent.header("Content-Type") == "image/png")
        #expect(sent.header("Content-Length") == "70000")

        let missing = await basecamp(
            ["attachments", "create", "--name", "x", "--file", file.path + ".gone"],
            variables: variables
        ) { $0.transport = transport }
        #expect(missing.exitCode == 64)
        let folder = await basecamp(
            ["attachments", "create", "--name", "x", "--file", FileManager.default.temporaryDirectory.path],
            variables: variables
        ) { $0.transport = transport }
        #expect(folder.exitCode == 64)
        #expect(transport.requests.count == 1, "nothing sent for a file that cannot be read")
    }

    @Test("--json keeps a timestamp's milliseconds, in the user's zone")
    func jsonMilliseconds() async throws {
        let transport = ScriptedTransport([
            .json(["id": 7, "created_at": "2026-01-31T08:36:22.481Z", "updated_at": "2026-01-31T08:36:22.9999999Z"])
        ])
        let result = await basecamp(
            ["--json", "todos", "get", "7"],
            variables: credentials("https://3.basecampapi.com").merging(["BASECAMP_USER_AGENT": "t (t@example.com)"]) {
                $1
            }
        ) {
            $0.transport = transport
            $0.timeZone = TimeZone(identifier: "Australia/Melbourne") ?? .gmt
        }
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""createdAt" : "2026-01-31T19:36:22.481+11:00""#), "\(result.stdout)")
        #expect(result.stdout.contains(#""updatedAt" : "2026-01-31T19:36:22.9999999+11:00""#), "\(result.stdout)")
    }
}
