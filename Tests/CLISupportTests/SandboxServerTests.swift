import APISandbox
import CLISupport
import CLISupportTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The built `api-sandbox`: its help, version, and a port already in use.
@Suite("The built api-sandbox executable")
struct SandboxServerTests {
    @Test("--help lists every API it plays with its base path; examples stay whole")
    func help() async throws {
        let result = try await BuiltExecutable.run("api-sandbox", arguments: ["--help"], variables: ["COLUMNS": "60"])
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n")
        for path in ["/basecamp ", "/monash ", "/markbook/api/v1.5 ", "/_test "] {
            #expect(lines.contains { $0.hasPrefix("  " + path) }, "\(path)")
        }
        #expect(
            lines.contains(
                "  basecamp --base-url http://127.0.0.1:8080/basecamp --token sandbox --account 195539477 projects list"
            )
        )
        #expect(lines.filter { !$0.hasPrefix("  basecamp ") }.allSatisfy { DisplayWidth.of($0) <= 60 })
    }

    @Test("The examples in its help run as printed against it, at the port it picked")
    func examplesRun() async throws {
        let help = try await BuiltExecutable.run("api-sandbox", arguments: ["--help"])
        let examples = help.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("basecamp ") || $0.hasPrefix("curl ") }
        #expect(examples.count == 2)
        let server = try RunningExecutable("api-sandbox", arguments: ["--port", "0"])
        let banner = try await server.waitFor("Test routes", in: server.stdout)
        let base = try #require(
            banner.split(separator: "\n").first { $0.hasPrefix("api-sandbox listening on ") }?.split(separator: " ")
                .last
        )
        for example in examples {
            let words = example.replacingOccurrences(of: "http://127.0.0.1:8080", with: base).split(separator: " ")
                .map(String.init)
            if words[0] == "basecamp" {
                let result = try await BuiltExecutable.run("basecamp", arguments: Array(words.dropFirst()))
                #expect(result.exitCode == 0, "\(example): \(result.stderr)")
                #expect(result.stdout.contains("The Leto Laptop"))
            } else {
                // What `curl URL` does: one GET, the body on stdout.
                let url = try #require(URL(string: words[1]))
                let (_, response) = try await URLSession.shared.data(from: url)
                #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(example)")
            }
        }
        #expect(try await server.interrupt() == 0)
    }

    @Test("--verbose logs each request with its secret query values hidden")
    func verboseHidesSecrets() async throws {
        let server = try RunningExecutable("api-sandbox", arguments: ["--port", "0", "--verbose"])
        let banner = try await server.waitFor("Test routes", in: server.stdout)
        let base = try #require(
            banner.split(separator: "\n").first { $0.hasPrefix("api-sandbox listening on ") }?.split(separator: " ")
                .last
        )
        let query = "action=userlist&sessiontoken=tok-7f3a9c&sessionkey=4711471147&apikey=KEY-0a1b2c3d"
        let url = try #require(URL(string: "\(base)/markbook/api/v1.5/?\(query)&access_token=at-55e1"))
        _ = try await URLSession.shared.data(from: url)
        // The log goes to stderr, the banner to stdout.
        try await server.waitFor("action=userlist", in: server.stderr)
        #expect(try await server.interrupt() == 0)
        let output = server.stdout.text + server.stderr.text
        #expect(output.contains("sessiontoken=[REDACTED]&sessionkey=[REDACTED]&apikey=[REDACTED]"))
        for secret in ["tok-7f3a9c", "4711471147", "KEY-0a1b2c3d", "at-55e1"] {
            #expect(!output.contains(secret), "\(secret) was logged")
        }
    }

    @Test("--canned lists the operations that answer a fixed example, and exits 0")
    func canned() async throws {
        let result = try await BuiltExecutable.run("api-sandbox", arguments: ["--canned"])
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n")
        let operations = lines.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(
            lines.first
                == "\(operations.count) Basecamp operations answer the Spec's example (marked X-Sandbox-Example: true):"
        )
        #expect(operations.contains("GetCalendar"))
        #expect(!operations.contains("GetCard"))
        #expect(operations == operations.sorted())
    }

    @Test("--version prints the version")
    func version() async throws {
        let result = try await BuiltExecutable.run("api-sandbox", arguments: ["--version"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == "0.1.0\n")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A port in use is one sentence on stderr and exit 1")
    func busyPort() async throws {
        let holder = try await Sandbox.start()
        let result = try await BuiltExecutable.run("api-sandbox", arguments: ["--port", String(holder.port)])
        await holder.stop()
        #expect(result.exitCode == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "api-sandbox: port \(holder.port) is already in use; choose another with --port, or --port 0 for a free one.\n"
        )
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Sandbox.start on a port in use throws portInUse")
    func portInUseError() async throws {
        let holder = try await Sandbox.start()
        await #expect(throws: SandboxError.portInUse(port: holder.port)) {
            _ = try await Sandbox.start(port: holder.port)
        }
        await holder.stop()
    }
}

@Suite("Sandbox state files")
struct SandboxStateFileTests {
    struct Saved: Codable, Equatable {
        var version = 2
        var items: [String]
    }

    @Test("No file yet is nil; a saved value reads back")
    func roundTrip() throws {
        let folder = try ScratchFolder("state")
        defer { folder.remove() }
        let file = SandboxStateFile(folder.file("state.json"))
        #expect(try file.load(Saved.self, version: 2) == nil)
        try file.save(Saved(items: ["a"]))
        #expect(try file.load(Saved.self, version: 2) == Saved(items: ["a"]))
    }

    @Test(
        "Another layout, a wrong shape, a directory, a missing directory: each named",
        arguments: [
            (
                #"{"version": 3, "items": []}"#,
                "is from another version of the sandbox: it holds layout 3, this sandbox reads layout 2."
            ),
            (#"{"version": 2, "items": [1]}"#, "is damaged: items.0 has the wrong type."),
            (#"{"version": 2}"#, "is damaged: items is missing."),
            ("[]", "is damaged: the top level has the wrong type."),
        ]
    )
    func refused(contents: String, ending: String) throws {
        let folder = try ScratchFolder("state")
        defer { folder.remove() }
        let url = folder.file("state.json")
        try Data(contents.utf8).write(to: url)
        #expect {
            try SandboxStateFile(url).load(Saved.self, version: 2)
        } throws: { error in
            "\(error)" == "The sandbox state file \(url.path) \(ending)"
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == contents)
    }

    @Test("A directory where the file should be, or no directory at all")
    func places() throws {
        let folder = try ScratchFolder("state")
        defer { folder.remove() }
        #expect {
            try SandboxStateFile(folder.url).load(Saved.self, version: 2)
        } throws: { error in
            "\(error)" == "Cannot read the sandbox state file \(folder.url.path): it is a directory."
        }
        let nowhere = folder.file("missing/state.json")
        #expect {
            try SandboxStateFile(nowhere).load(Saved.self, version: 2)
        } throws: { error in
            (error as? SandboxStateFileError)?.problem == .unwritable
        }
    }
}
