import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import BasecampCLI

/// Options that contradict each other are a usage error (exit 64) before any request: every
/// `--X`/`--no-X` and `--X`/`--clear-X` pair of every command (found in the tool's own
/// description of its arguments), and the pairs of the global and list options.
@Suite("basecamp refuses contradictory options")
struct ContradictionTests {
    typealias Pair = OptionContradiction

    static let hardware = "1069479338"
    static let leto = "2085958504"

    static let globalAndListPairs =
        Pair.globalOptions(["projects", "list"], baseURL: "http://127.0.0.1:9/basecamp") + [
            Pair(
                arguments: ["todos", "list", "--todolist", hardware, "--page", "2", "--max-pages", "1"],
                names: ["--page", "--max-pages"]
            ),
            Pair(
                arguments: [
                    "api", "ListTodos", "--param", "todolistId=\(hardware)", "--page", "2", "--max-pages", "1",
                ],
                names: ["--page", "--max-pages"]
            ),
            Pair(arguments: ["timeline", leto, "--watch", "--page", "2"], names: ["--watch", "--page"]),
            Pair(arguments: ["timeline", leto, "--watch", "--limit", "5"], names: ["--watch", "--limit"]),
            Pair(arguments: ["--max-pages", "1", "timeline", leto, "--watch"], names: ["--watch", "--max-pages"]),
            Pair(arguments: ["--json", "timeline", leto, "--watch"], names: ["--watch", "--format json"]),
            Pair(
                arguments: ["--format", "csv", "events", "--recording", "1069479395", "--watch"],
                names: ["--watch", "--format csv"]
            ),
            Pair(arguments: ["timeline", leto, "--interval", "5"], names: ["--interval", "--watch"]),
        ]

    /// Every `--X`/`--no-X` flag pair and every `--X`/`--clear-X` pair, each on its command's own
    /// example (which fills in what the command requires).
    static func flagPairs() async throws -> [Pair] {
        let dump = await basecamp(["--experimental-dump-help"]) { $0.columns = 1_000_000 }
        let root = try #require(try JSONValue(parsing: Data(dump.stdout.utf8))["command"])
        var pairs: [Pair] = []
        func walk(_ command: JSONValue, path: [String]) {
            let arguments = command["arguments"]?.arrayValue ?? []
            var names: [String: String] = [:]
            for argument in arguments {
                for name in argument["names"]?.arrayValue ?? [] where name["kind"] == "long" {
                    names[name["name"]?.stringValue ?? ""] = argument["valueName"]?.stringValue ?? ""
                }
            }
            let example = Self.example(of: command)
            for name in names.keys.sorted() {
                if name.hasPrefix("no-"), names[String(name.dropFirst(3))] != nil {
                    let flag = String(name.dropFirst(3))
                    pairs.append(
                        Pair(arguments: example + ["--" + flag, "--" + name], names: ["--" + flag, "--" + name])
                    )
                }
                if name.hasPrefix("clear-"), let valueName = names[String(name.dropFirst(6))] {
                    let option = String(name.dropFirst(6))
                    pairs.append(
                        Pair(
                            arguments: example + ["--" + option, Self.sample(valueName), "--" + name],
                            names: ["--" + option, "--" + name]
                        )
                    )
                }
            }
            for subcommand in command["subcommands"]?.arrayValue ?? [] {
                walk(subcommand, path: path + [subcommand["commandName"]?.stringValue ?? ""])
            }
        }
        walk(root, path: [])
        return pairs
    }

    /// The words of the command's `Example:` line after `basecamp`, without `--sandbox`.
    static func example(of command: JSONValue) -> [String] {
        let lines = (command["discussion"]?.stringValue ?? "").split(separator: "\n")
        guard let index = lines.firstIndex(of: "Example:"), index + 1 < lines.count else { return [] }
        return ShellWords.split(String(lines[index + 1].dropFirst("  basecamp ".count))).filter { $0 != "--sandbox" }
    }

    static func sample(_ valueName: String) -> String {
        switch valueName {
        case "date": return "2026-03-01"
        case "n", "id": return "1049715914"
        default: return "x"
        }
    }

    /// Runs `pair` on a transport that records any request (and answers none).
    static func refused(_ pair: Pair) async {
        let transport = ScriptedTransport([])
        let result = await basecamp(pair.arguments, variables: credentials("http://127.0.0.1:9/basecamp")) {
            $0.transport = transport
            $0.columns = 1000
        }
        pair.expectRefused(result, requestsSent: transport.requests.count)
    }

    @Test("Global, list and watch options", arguments: globalAndListPairs)
    func globalAndList(_ pair: Pair) async {
        await Self.refused(pair)
    }

    @Test("Every flag with its --no- form, and every field with its --clear- form, on every command")
    func flagsAndClears() async throws {
        let pairs = try await Self.flagPairs()
        // 26 generated --X/--no-X pairs and the edit commands' clears and flags, at the least.
        #expect(pairs.count > 50)
        #expect(pairs.contains { $0.arguments.contains("--clear-due-on") })
        for pair in pairs {
            await Self.refused(pair)
        }
    }
}
