import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import MonashSchedule

/// `monash timetable [--day DATE]`: the week's classes, or one day's.
struct TimetableCommand: MonashSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "timetable",
        abstract: "List the week's classes, or one day's.",
        discussion: """
            Times are shown in the campus zone unless --time-zone names another; --json gives ISO 8601 times with that zone's offset, and --format csv, tsv or jsonl one row per class.

            --ics writes the week as an iCalendar file that calendar apps import: one event per class with the room and campus as its location and the lecturer in its description, times in the campus zone with its daylight-saving rules (or in UTC with --utc), and event ids that name the class rather than its time, so importing the week again after a class moved updates the event instead of adding a copy. With --output the file is written whole or not at all, and a file already there is kept unless --force; a device or a named pipe is written in place, and a symbolic link is followed. For a calendar that stays current without importing, subscribe to calendar serve.

            Examples:
              monash --sandbox timetable --day today
              monash --sandbox timetable --time-zone Europe/London
              monash --sandbox timetable --format csv --fields start,course,room
              monash --sandbox timetable --ics --output week.ics
              monash --sandbox timetable --ics --utc > week.ics
            """
    )

    @ParentCommand var monash: Monash

    @Option(help: ArgumentHelp("Only this day: YYYY-MM-DD, today, tomorrow or yesterday.", valueName: "date"))
    var day: CalendarDay?

    @Flag(help: "Write the week as an iCalendar (.ics) file for calendar apps.")
    var ics = false

    @Flag(help: "With --ics: write times in UTC instead of the campus zone.")
    var utc = false

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp("With --ics: write to this file instead of standard output.", valueName: "file")
    )
    var output: String?

    @Flag(help: "With --output: replace a file already there.")
    var force = false

    func validate() throws {
        guard !ics else {
            if day != nil { throw ValidationError("--ics writes the whole week; it cannot be used with --day.") }
            if let output, output.isEmpty { throw ValidationError("--output needs a file name.") }
            if force, output == nil { throw ValidationError("--force only applies to --output.") }
            return
        }
        if utc { throw ValidationError("--utc only applies to --ics.") }
        if output != nil { throw ValidationError("--output only applies to --ics.") }
        if force { throw ValidationError("--force only applies to --ics --output.") }
    }

    private struct Output: Encodable {
        var week: Int
        var student: StudentJSON
        var timeZone: String
        var classes: [ClassJSON]
    }

    func run(in context: CommandContext) async throws {
        if ics, context.outputsJSON {
            throw ValidationError("--ics writes iCalendar; it cannot be used with --json, --format or --fields.")
        }
        if ics, monash.timeZone != nil {
            throw ValidationError(
                "--ics writes times in the campus zone (or UTC with --utc), which calendar apps show in theirs; --time-zone cannot be used with it."
            )
        }
        // Looked at before the timetable is fetched, so a path that cannot be written costs nothing.
        let destination = try output.map { try FileDestination(path: $0, replacing: force) }
        let timetable = try await context.timetable()
        if ics {
            try writeCalendar(timetable, to: destination, in: context)
            return
        }
        let zone = context.zone(monash.timeZone)
        let dates = zone.dates
        let wanted = day.map { $0.noon(in: zone.timeZone, now: context.now) }
        let classes = wanted.map { timetable.classes(onSameDayAs: $0, in: zone.timeZone) } ?? timetable.sortedClasses
        let rows = classes.map { ClassJSON($0, dates: dates) }
        let envelope = Output(
            week: timetable.week,
            student: StudentJSON(id: timetable.student.id, name: timetable.student.name),
            timeZone: zone.name,
            classes: rows
        )
        try context.printList(rows, envelope: envelope, rowsKey: "classes") {
            context.print(
                "Week \(timetable.week) · \(timetable.student.name) (\(timetable.student.id)) · times in \(zone.name)"
            )
            context.print()
            guard !classes.isEmpty else {
                context.print(wanted.map { "No classes on \(dates.dayWithYear($0))." } ?? "No classes this week.")
                return
            }
            var table = TextTable(
                columns: ["DAY", "TIME", "COURSE", "CLASS", "ROOM", "LECTURER", "CAMPUS"].map { .init($0) }
            )
            for session in classes {
                table.append([
                    dates.day(session.start), dates.timeRange(session.start, session.end), session.course,
                    session.kind, session.room, session.lecturer, session.campus,
                ])
            }
            context.print(table)
        }
    }

    private func writeCalendar(
        _ timetable: Timetable,
        to destination: FileDestination?,
        in context: CommandContext
    ) throws {
        // The campus zone under the name MONASH_CAMPUS_ZONE gives it (UTC, not Foundation's GMT).
        let options = ICalendarOptions(
            times: utc ? .utc : .zoned,
            stamp: context.now,
            timeZoneName: context.zone(nil).name
        )
        let calendar = timetable.iCalendar(options)
        guard let destination else {
            // Every iCalendar line ends with CRLF (one Character in Swift), the last one included;
            // print adds the LF.
            context.print(String(calendar.dropLast()) + "\r")
            return
        }
        try FileWriter.save(Data(calendar.utf8), to: destination)
        let count = timetable.classes.count
        context.note("Wrote week \(timetable.week): \(count) class\(count == 1 ? "" : "es") to \(destination.path).")
    }
}
