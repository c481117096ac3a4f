import ArgumentParser
import CLISupport
import MonashSchedule

/// `monash timetable [--day DATE]`: the week's classes, or one day's.
struct TimetableCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "timetable",
        abstract: "List the week's classes, or one day's.",
        discussion: "Times are shown in your local time zone; --json gives ISO 8601 times with the campus offset."
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
        let dates = context.dates
        let wanted = day.map { $0.noon(in: context.environment.timeZone, now: context.now) }
        let classes =
            wanted.map { timetable.classes(onSameDayAs: $0, in: context.environment.timeZone) }
            ?? timetable.sortedClasses

        if context.outputsJSON {
            try context.printJSON(
                Output(
                    week: timetable.week,
                    student: StudentJSON(id: timetable.student.id, name: timetable.student.name),
                    timeZone: timetable.timeZone.identifier,
                    classes: classes.map { ClassJSON($0, dates: timetable.campusDates) }
                )
            )
            return
        }
        context.print(
            "Week \(timetable.week) · \(timetable.student.name) (\(timetable.student.id)) · "
                + "times in \(context.environment.timeZone.identifier)"
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
