import CLISupport
import CLISupportTesting
import Foundation
import Testing

/// `monash timetable --ics` as a process: the file a calendar app imports. Scripts/ci-monash-ics.sh
/// reads the same output with a real iCalendar parser.
@Suite("The built monash executable: timetable --ics")
struct CalendarBinaryTests {
    /// The file's lines with folded continuations joined, as a parser unfolds them.
    static func unfolded(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
    }

    /// The values of the property `name`, text escapes (`\,` `\;` `\\`) undone.
    static func values(_ name: String, in lines: [String]) -> [String] {
        lines.compactMap { line in
            guard line.hasPrefix(name + ":") || line.hasPrefix(name + ";") else { return nil }
            return line.split(separator: ":", maxSplits: 1).last.map {
                $0.replacingOccurrences(of: "\\,", with: ",").replacingOccurrences(of: "\\;", with: ";")
                    .replacingOccurrences(of: "\\\\", with: "\\")
            }
        }
    }

    @Test("--ics --output writes the week with a VTIMEZONE, one event per class, room and campus, lecturer")
    func file() async throws {
        let folder = try ScratchFolder("monash-ics")
        defer { folder.remove() }
        let target = folder.file("week.ics")
        let variables = ["MONASH_SANDBOX_WEEK": "large"]

        let written = try await runBuiltMonash(
            ["--sandbox", "timetable", "--ics", "--output", target.path],
            variables: variables
        )
        #expect(written.exitCode == 0, "\(written.stderr)")
        #expect(written.stdout.isEmpty)
        let json = try await runBuiltMonash(["--sandbox", "--json", "timetable"], variables: variables)
        let week = try json.json(TimetableOutput.self)
        #expect(written.stderr == "Wrote week \(week.week): \(week.classes.count) classes to \(target.path).\n")

        let text = try String(contentsOf: target, encoding: .utf8)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends with CRLF")
        let lines = Self.unfolded(text)
        #expect(lines.contains("BEGIN:VTIMEZONE"))
        #expect(lines.contains("TZID:Australia/Melbourne"))
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == week.classes.count)
        let uids = Self.values("UID", in: lines)
        #expect(Set(uids).count == week.classes.count, "one stable id per class")
        #expect(Self.values("DTSTART", in: lines).allSatisfy { !$0.hasSuffix("Z") })
        let locations = Self.values("LOCATION", in: lines).joined(separator: "\n")
        let descriptions = Self.values("DESCRIPTION", in: lines).joined(separator: "\n")
        for session in week.classes {
            #expect(locations.contains(session.campus), "\(session.campus)")
            #expect(descriptions.contains(session.lecturer), "\(session.lecturer)")
        }
        #expect(try folder.names() == ["week.ics"])

        // Written again (to stdout, in UTC): the same events under the same ids.
        let utc = try await runBuiltMonash(["--sandbox", "timetable", "--ics", "--utc"], variables: variables)
        #expect(utc.exitCode == 0, "\(utc.stderr)")
        #expect(utc.stdout.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(utc.stdout.hasSuffix("END:VCALENDAR\r\n"))
        let utcLines = Self.unfolded(utc.stdout)
        #expect(!utcLines.contains("BEGIN:VTIMEZONE"))
        #expect(Self.values("DTSTART", in: utcLines).allSatisfy { $0.hasSuffix("Z") })
        #expect(Self.values("UID", in: utcLines) == uids)
    }

    @Test("--ics refuses --day, --json and --format; --output and --utc need --ics (exit 64)")
    func usage() async throws {
        for arguments in [
            ["timetable", "--ics", "--day", "today"], ["--json", "timetable", "--ics"],
            ["timetable", "--ics", "--format", "csv"], ["timetable", "--output", "week.ics"], ["timetable", "--utc"],
        ] {
            let result = try await runBuiltMonash(["--sandbox"] + arguments)
            #expect(result.exitCode == 64, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
