import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

@testable import BasecampCLI

/// Every example any `basecamp … --help` prints runs as printed: `--sandbox` ones against the
/// built-in sandbox, the others with the variables a signed-in user has, pointing at a sandbox
/// the test owns. Pipelines, uploads and downloads run in a shell in a scratch folder; commands
/// that run until Ctrl-C are started, seen to be up, interrupted, and must exit 0. The groups run
/// as cases, two at a time.
///
/// A `--sandbox` example that runs in-process is sent to the group's own sandbox, reset to the
/// seeded account first, rather than starting one per example: it meets the account `--sandbox`
/// starts, and starting a server 500 times was a fifth of the whole suite's time. What
/// `--sandbox` itself does is tested where it is the subject (CommandTests, BinaryTests).
@Suite("Every example in basecamp's help runs as printed")
struct HelpExampleTests {
    /// An example line and the command whose help prints it.
    struct Example: Sendable, Hashable {
        var help: String
        var line: String
    }

    /// The examples of one group of commands (`todos`, `api`, the root…).
    struct Batch: Sendable, CustomTestStringConvertible {
        var name: String
        var examples: [Example]
        var testDescription: String { "\(name) (\(examples.count))" }
    }

    /// Every line of every help that starts with `basecamp` (after any `NAME=value`), each once.
    static let examples: [Example] = {
        var seen = Set<String>()
        var examples: [Example] = []
        for (path, command) in HelpText.commands(of: BasecampCommand.self) {
            for line in command.configuration.discussion.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard line.hasPrefix("  "), Self.command(trimmed).first == "basecamp" else { continue }
                if seen.insert(trimmed).inserted { examples.append(Example(help: path, line: trimmed)) }
            }
        }
        return examples
    }()

    static let batches: [Batch] = Dictionary(grouping: examples) { example in
        example.help.split(separator: " ").dropFirst().first.map(String.init) ?? "basecamp"
    }
    .map { Batch(name: $0.key, examples: $0.value) }
    .sorted { $0.name < $1.name }

    /// Batches that run one after another, beside the other lanes.
    struct Lane: Sendable {
        var batches: [Batch] = []
        var exampleCount: Int { batches.reduce(0) { $0 + $1.examples.count } }
    }

    /// The batches dealt into four lanes of about as many examples each, largest batch first.
    static let lanes: [Lane] = batches.sorted { $0.examples.count > $1.examples.count }.reduce(
        into: Array(repeating: Lane(), count: 4)
    ) { lanes, batch in
        let lightest = lanes.indices.min { lanes[$0].exampleCount < lanes[$1].exampleCount } ?? 0
        lanes[lightest].batches.append(batch)
    }

    /// The words after any leading `NAME=value`.
    static func command(_ line: String) -> [String] {
        Array(ShellWords.split(line).drop { $0.contains("=") && !$0.hasPrefix("-") })
    }

    /// The leading `NAME=value` words as variables.
    static func assignments(_ line: String) -> [String: String] {
        var variables: [String: String] = [:]
        for word in ShellWords.split(line) {
            guard word.contains("="), !word.hasPrefix("-"), let equals = word.firstIndex(of: "=") else { break }
            variables[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        return variables
    }

    @Test("There is one for every command, and each command's help shows one")
    func count() {
        // A command form and a raw `api` form for each operation (uploads have one), and the rest.
        #expect(Self.examples.count > 2 * 250 - 3)
        #expect(Self.examples.contains { $0.line.contains(" --watch") })
        #expect(Self.examples.contains { $0.line.contains("download 1069479913") })
    }

    // Four batches at a time, one from each lane: each example is a burst of CPU on the
    // concurrency pool (parsing, starting a sandbox), and all 57 batches at once would queue ahead
    // of every loopback server the rest of the suite is talking to, long enough for timeouts. With
    // fewer lanes, these would still be running well after the rest of a full run has ended.
    // One test per lane, each batch a case of its own, so no case runs long.
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Each runs as printed and exits 0 (lane 1)", .serialized, arguments: lanes[0].batches)
    func runLane1(_ batch: Batch) async throws { try await run(batch) }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Each runs as printed and exits 0 (lane 2)", .serialized, arguments: lanes[1].batches)
    func runLane2(_ batch: Batch) async throws { try await run(batch) }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Each runs as printed and exits 0 (lane 3)", .serialized, arguments: lanes[2].batches)
    func runLane3(_ batch: Batch) async throws { try await run(batch) }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Each runs as printed and exits 0 (lane 4)", .serialized, arguments: lanes[3].batches)
    func runLane4(_ batch: Batch) async throws { try await run(batch) }

    /// Runs every example of `batch` against a sandbox of its own, as a signed-in user.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func run(_ batch: Batch) async throws {
        // A batch is a burst of a few hundred requests, which Basecamp's rate limit would spread
        // over minutes.
        let module = BasecampSandboxModule()
        module.rateLimiter.setLimit(nil)
        try await withBasecampSandbox(module: module) { _, baseURL in
            let signedIn = credentials(baseURL).merging(["BASECAMP_WEBHOOK_SECRET": "example-secret"]) { $1 }
            for example in batch.examples {
                try await Self.run(example, signedIn: signedIn, module: module)
            }
        }
    }

    /// Runs one example; `signedIn` is the environment of a user signed in to the test's
    /// sandbox, which `module` plays.
    static func run(_ example: Example, signedIn: [String: String], module: BasecampSandboxModule) async throws {
        let words = command(example.line)
        let sandboxed = words.contains("--sandbox")
        let variables = assignments(example.line).merging(sandboxed ? [:] : signedIn) { first, _ in first }
        let arguments = Array(words.dropFirst())
        if example.line.contains("|") || example.line.contains(">") || touchesFiles(words) {
            let result = try await Shell.run(example.line, variables: sandboxed ? [:] : signedIn)
            #expect(result.exitCode == 0, "\(example.line): \(result.stderr)")
        } else if words.contains("--watch") || words.contains("listen") {
            let running = try RunningExecutable("basecamp", arguments: arguments, variables: variables)
            let started = try await running.waitFor("Ctrl-C to stop", in: running.stderr)
            #expect(started.contains("Ctrl-C to stop"), "\(example.line): \(started)")
            #expect(try await running.interrupt() == 0, "\(example.line): \(running.stderr.text)")
        } else if sandboxed, !variables.keys.contains(where: { $0.hasPrefix("BASECAMP_SANDBOX_") }) {
            try module.resetAccount()
            let ownVariables = assignments(example.line).merging(signedIn) { first, _ in first }
            let result = await basecamp(arguments.filter { $0 != "--sandbox" }, variables: ownVariables)
            #expect(result.exitCode == 0, "\(example.line): \(result.stderr)")
        } else {
            let result = await basecamp(arguments, variables: variables)
            #expect(result.exitCode == 0, "\(example.line): \(result.stderr)")
        }
    }

    /// Whether the command reads or writes a file in the working directory.
    static func touchesFiles(_ words: [String]) -> Bool {
        words.contains("--file") || words.contains("download") || words.contains("upload")
            || (words.contains("uploads") && words.contains("replace"))
    }
}

/// Runs a line in `/bin/sh` in a scratch folder holding the files the examples name, with the
/// built tools first on `PATH`.
enum Shell {
    static func run(_ line: String, variables: [String: String]) async throws -> CommandResult {
        let scratch = try ScratchFolder("basecamp-example")
        defer { scratch.remove() }
        for name in ["report.pdf", "logo-v2.png"] {
            try Data("%example \(name)\n".utf8).write(to: scratch.file(name))
        }
        let bin = try BuiltExecutable.url(named: "basecamp").deletingLastPathComponent().path
        let inherited = ProcessInfo.processInfo.environment.filter {
            BuiltExecutable.inheritedVariables.contains($0.key)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", line]
        process.currentDirectoryURL = scratch.url
        process.environment = inherited.merging(variables) { $1 }
            .merging(["PATH": bin + ":" + (inherited["PATH"] ?? "/usr/bin:/bin")]) { $1 }
        return try await process.runToEnd()
    }
}

/// Splits a command line the way a POSIX shell does for the examples' simple quoting: single
/// quotes keep their contents whole.
enum ShellWords {
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var inWord = false
        for character in line {
            if character == "'" {
                quoted.toggle()
                inWord = true
            } else if character == " ", !quoted {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
