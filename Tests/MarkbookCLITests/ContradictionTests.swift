import CLISupport
import CLISupportTesting
import Foundation
import HTTPCoreTesting
import Testing

/// Options that contradict each other are a usage error (exit 64) before any request.
@Suite("markbook refuses contradictory options")
struct ContradictionTests {
    /// A command line with a contradiction, and the options the message must name.
    struct Pair: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var names: [String]

        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let pairs: [Pair] = [
        Pair(arguments: ["--json", "--format", "csv", "list"], names: ["--json", "--format"]),
        Pair(
            arguments: ["--sandbox", "--base-url", "http://127.0.0.1:9/markbook", "list"],
            names: ["--sandbox", "--base-url"]
        ),
        Pair(
            arguments: ["result", "set", "1000001", "--student", "1", "--task", "1", "--result", "", "--text"],
            names: ["--result \"\"", "--text"]
        ),
        Pair(
            arguments: [
                "result", "set", "1000001", "--student", "1", "--task", "1", "--result", "", "--allow-out-of-range",
            ],
            names: ["--result \"\"", "--allow-out-of-range"]
        ),
    ]

    @Test("Each pair is exit 64, names both options and sends nothing", arguments: pairs)
    func refused(_ pair: Pair) async {
        let transport = ScriptedTransport([])
        let variables = CLIAccount.variables.merging(["MARKBOOK_BASE_URL": "http://127.0.0.1:9/markbook"]) { $1 }
        let result = await markbook(pair.arguments, variables: variables) {
            $0.transport = transport
            $0.columns = 1000
        }
        #expect(result.exitCode == 64, "\(result.stderr)")
        for name in pair.names {
            #expect(result.stderr.contains(name), "\(result.stderr)")
        }
        #expect(transport.requests.isEmpty)
    }
}
