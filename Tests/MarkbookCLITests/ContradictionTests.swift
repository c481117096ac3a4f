import CLISupport
import CLISupportTesting
import Foundation
import HTTPCoreTesting
import Testing

/// Options that contradict each other are a usage error (exit 64) before any request.
@Suite("markbook refuses contradictory options")
struct ContradictionTests {
    typealias Pair = OptionContradiction

    static let pairs =
        Pair.globalOptions(["list"], baseURL: "http://127.0.0.1:9/markbook") + [
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
        pair.expectRefused(result, requestsSent: transport.requests.count)
    }
}
