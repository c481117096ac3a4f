import ArgumentParser

/// `monash calendar`: the timetable for calendar apps.
struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Serve the timetable as a calendar that apps subscribe to.",
        discussion: "For a one-off file to import, use timetable --ics.",
        subcommands: [CalendarServeCommand.self]
    )
}
