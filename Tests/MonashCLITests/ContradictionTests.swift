import CLISupport
import CLISupportTesting
import Foundation
import HTTPCoreTesting
import Testing

/// Options that contradict each other are a usage error (exit 64) before any request.
@Suite("monash refuses contradictory options")
struct ContradictionTests {
    typealias Pair = OptionContradiction

    static let pairs =
        Pair.globalOptions(["parking"], baseURL: "http://127.0.0.1:9/monash") + [
            Pair(arguments: ["timetable", "--ics", "--day", "today"], names: ["--ics", "--day"]),
            Pair(arguments: ["--json", "timetable", "--ics"], names: ["--ics", "--json"]),
            Pair(arguments: ["--format", "csv", "timetable", "--ics"], names: ["--ics", "--format"]),
            Pair(arguments: ["--fields", "start", "timetable", "--ics"], names: ["--ics", "--fields"]),
            Pair(arguments: ["--time-zone", "Europe/London", "timetable", "--ics"], names: ["--ics", "--time-zone"]),
            Pair(
                arguments: ["--time-zone", "UTC", "calendar", "serve", "--port", "0"],
                names: ["calendar serve", "--time-zone"]
            ),
            Pair(arguments: ["timetable", "--utc"], names: ["--utc", "--ics"]),
            Pair(arguments: ["timetable", "--output", "week.ics"], names: ["--output", "--ics"]),
        ]

    @Test("Each pair is exit 64, names both options and sends nothing", arguments: pairs)
    func refused(_ pair: Pair) async {
        let transport = ScriptedTransport([])
        let result = await monash(pair.arguments, variables: ["MONASH_BASE_URL": "http://127.0.0.1:9/monash"]) {
            $0.transport = transport
            $0.columns = 1000
        }
        pair.expectRefused(result, requestsSent: transport.requests.count)
    }
}
