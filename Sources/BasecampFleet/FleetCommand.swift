import ArgumentParser
import Foundation

/// `basecamp-fleet`: the processes of the fleet proof that `Scripts/fleet.sh` starts: the
/// Basecamp sandbox as the fleet's witness, a one-time sign-in, workers sharing one account, and
/// webhook receiver replicas; then the report that sums what each of them counted.
///
/// It is an executable of the repository, not a product the SDK's users build.
@main
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "basecamp-fleet",
        abstract: "Runs one part of the fleet proof (Scripts/fleet.sh starts them all).",
        subcommands: [
            FleetSandboxCommand.self, FleetSignInCommand.self, FleetWorkerCommand.self, FleetReceiverCommand.self,
            FleetReportCommand.self,
        ]
    )
}

/// Where a process writes its count line when it ends.
struct CountsOutput: ParsableArguments {
    @Option(help: "Append the count line to this file instead of printing it.")
    var counts: String?

    /// Writes `counts` as one JSON line, appended to the file when one is named.
    func write(_ counts: FleetCounts) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var line = try encoder.encode(counts)
        line.append(0x0A)
        guard let counts = self.counts else {
            FileHandle.standardOutput.write(line)
            return
        }
        // One write per line with O_APPEND, so processes sharing the file never interleave.
        let descriptor = open(counts, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw FleetReportError("cannot open \(counts)") }
        defer { close(descriptor) }
        let written = line.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else { throw FleetReportError("cannot write to \(counts)") }
    }
}

/// Prints a line to standard output at once, so a script waiting for it sees it.
func announce(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
