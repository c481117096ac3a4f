import ArgumentParser
import CLISupport
import MonashSchedule

/// `monash timetable [--day DATE]`: the week's classes, or one day's.
struct TimetableCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "timetable",
        abstract: "List the week's classes, or one day's.",
        discussion: """
            Times are shown in the campus zone unless --time-zone names another; --json gives ISO 8601 times with that zone's offset, and --format csv, tsv or jsonl one row per class.

            Examples:
              monash --sandbox timetable --day today
              monash --sandbox timetable --time-zone Europe/London
              monash --sandbox timetable --format csv --fields start,course,room
            """
    )

    @ParentCommand var monash: Monash
    var global: GlobalOptions { monash.global }

    @Option(help: ArgumentHelp("Only this day: YYYY-MM-DD, today, tomorrow or yesterday.", valueName: "date"))
    var day: CalendarDay?

    private struct Output: Encodable {
        var week: Int
        var student: StudentJSON
        var timeZone: String
        var classes: [ClassJSON]
    }

    func run(in context: CommandContext) async throws {
        let timetable = try await context.timetable()
        let zone = context.zone(monash.timeZone)
        let dates = DateText(timeZone: zone)
        let wanted = day.map { $0.noon(in: zone, now: context.now) }
        let classes = wanted.map { timetable.classes(onSameDayAs: $0, in: zone) } ?? timetable.sortedClasses
        let rows = classes.map { ClassJSON($0, dates: dates) }
        let envelope = Output(
            week: timetable.week,
            student: StudentJSON(id: timetable.student.id, name: timetable.student.name),
            timeZone: zone.identifier,
            classes: rows
        )
        try context.printList(rows, envelope: envelope, rowsKey: "classes") {
            context.print(
                "Week \(timetable.week) · \(timetable.student.name) (\(timetable.student.id)) · times in \(zone.identifier)"
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
}
