import ArgumentParser
import Foundation

/// `basecamp-fleet report FILE`: sums the run's count lines, prints the report, and exits 1 when
/// the run does not show what `--expect` says it should.
struct FleetReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Sums a fleet run's count lines into its report."
    )

    /// What the run is expected to show.
    enum Expectation: String, ExpressibleByArgument {
        /// The coordinated fleet's goal.
        case goal
        /// The failures of an uncoordinated fleet.
        case failures
        /// Nothing: only print.
        case nothing
    }

    @Argument(help: "The file of count lines.")
    var file: String

    @Option(help: "goal (coordinated), failures (uncoordinated) or nothing.")
    var expect = Expectation.nothing

    func run() throws {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw FleetReportError("cannot read \(file)")
        }
        let report = try FleetReport(lines: text.components(separatedBy: "\n"))
        for line in report.details { announce(line) }
        switch expect {
        case .goal where !report.unmetGoals.isEmpty:
            announce("goal not met: " + report.unmetGoals.joined(separator: "; "))
        case .failures where !report.showsFailures:
            announce("the uncoordinated fleet showed no failure")
        default:
            break
        }
        announce(report.line)
        let failed = (expect == .goal && !report.unmetGoals.isEmpty) || (expect == .failures && !report.showsFailures)
        if failed { throw ExitCode.failure }
    }
}
