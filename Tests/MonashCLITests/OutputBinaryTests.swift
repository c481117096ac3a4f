import CLISupport
import Foundation
import Testing

/// Output formats, table widths, help and plain http, as a shell sees them.
@Suite("The built monash executable: output and terminals")
struct OutputBinaryTests {
    @Test("--format csv and tsv with --fields")
    func formats() async throws {
        let csv = try await runBuiltMonash(
            ["--sandbox", "parking", "--format", "csv", "--fields", "freeSlots,name"],
            variables: ["MONASH_SANDBOX_WEEK": "large"]
        )
        #expect(csv.exitCode == 0, "\(csv.stderr)")
        #expect(csv.stdout.hasPrefix("freeSlots,name\n320,Peninsula car park 3\n212,Clayton N1 multideck\n"))
        let unknown = try await runBuiltMonash(["--sandbox", "parking", "--format", "tsv", "--fields", "free"])
        #expect(unknown.exitCode == 64)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains(#"no field "free"; the fields are: freeSlots, name."#))
    }

    @Test("A table fits COLUMNS, cutting its widest text column")
    func narrow() async throws {
        let result = try await runBuiltMonash(
            ["--sandbox", "timetable"],
            variables: ["MONASH_SANDBOX_WEEK": "large", "COLUMNS": "70"]
        )
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 70 })
        #expect(lines.contains { $0.hasSuffix("…") })
    }

    @Test("--help names MONASH_BASE_URL and documents --time-zone and --format")
    func help() async throws {
        let result = try await runBuiltMonash(["--help"], variables: ["COLUMNS": "80"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("(or set MONASH_BASE_URL)"))
        #expect(!result.stdout.contains("<TOOL>"))
        #expect(result.stdout.contains("--time-zone <zone>"))
        #expect(result.stdout.contains("--format <format>"))
        #expect(result.stdout.contains("\n  monash --sandbox timetable --format csv\n"))
        #expect(result.stdout.split(separator: "\n").allSatisfy { DisplayWidth.of($0) <= 80 })
    }

    @Test("A plain http base URL for a remote host is accepted (the API has no credentials)")
    func plainHTTP() async throws {
        // 192.0.2.1 is reserved for documentation and never answers: the run fails on the
        // network (6), not on the URL (64).
        let result = try await runBuiltMonash([
            "--base-url", "http://192.0.2.1:9", "--no-retry", "--timeout", "0.5", "parking",
        ])
        #expect(result.exitCode == 6, "\(result.stderr)")
    }
}
