import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import MonashSchedule

/// `monash next [--at TIME] [--from STOP]`: the class under way, the next class, the next bus
/// and the emptiest car park.
struct NextCommand: MonashSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "Show what comes next: the next class, a bus and the emptiest car park.",
        discussion: """
            Examples:
              monash --sandbox next --from Clayton
              monash --sandbox next --at "$(date +%F)T08:30" --time-zone local
            """
    )

    @ParentCommand var monash: Monash

    @Option(
        help: ArgumentHelp(
            "Answer as if it were this time in the --time-zone zone, e.g. 2020-03-13T08:30 (default: now).",
            valueName: "time"
        )
    )
    var at: LocalDateTimeArgument?

    @Option(help: ArgumentHelp("Also show the next bus leaving this stop.", valueName: "stop"))
    var from: String?

    private struct Output: Encodable {
        var now: String
        var inProgress: Nullable<ClassJSON>
        var nextClass: Nullable<ClassJSON>
        var nextBus: Nullable<BusJSON>
        var bestCarPark: Nullable<CarParkJSON>
    }

    /// A clock stopped at `--at`, so the SDK's assistant answers for that moment.
    private struct FixedClock: TimeSource {
        let date: Date
        func now() -> Date { date }
        func monotonicNow() -> Duration { .zero }
        func sleep(for duration: Duration) async throws {}
    }

    func run(in context: CommandContext) async throws {
        let zone = context.zone(monash.timeZone)
        var clock = context.environment.clock
        if let at {
            guard let date = at.date(in: zone.timeZone) else {
                throw ValidationError("--at does not name a moment in \(zone.name).")
            }
            clock = FixedClock(date: date)
        }
        let assistant = TimetableAssistant(timetable: try await context.timetable(), clock: clock)
        let inProgress = assistant.classInProgress()
        let next = assistant.nextClass()
        let bus = from.map { stop -> BusLeg? in
            if assistant.timetable.buses(from: stop).isEmpty {
                context.note(assistant.timetable.noBusesNote(from: stop))
            }
            return assistant.nextBus(from: stop)
        }
        let park = assistant.carParkWithMostFreeSlots()

        let dates = zone.dates
        let output = Output(
            now: dates.iso8601(assistant.now),
            inProgress: Nullable(inProgress.map { ClassJSON($0, dates: dates) }),
            nextClass: Nullable(next.map { ClassJSON($0, dates: dates) }),
            nextBus: Nullable(bus.flatMap { $0 }.map { BusJSON($0, dates: dates) }),
            bestCarPark: Nullable(park.map(CarParkJSON.init))
        )
        try context.printRecord(output) {
            context.print("Times in \(zone.name)")
            context.print()
            printTable(
                inProgress: inProgress,
                next: next,
                bus: bus.flatMap { $0 },
                park: park,
                dates: dates,
                now: assistant.now,
                in: context
            )
        }
    }

    private func printTable(
        inProgress: ClassSession?,
        next: ClassSession?,
        bus: BusLeg?,
        park: CarPark?,
        dates: DateText,
        now: Date,
        in context: CommandContext
    ) {
        var table = TextTable(columns: [.init(""), .init("")], showsHeader: false)
        if let inProgress {
            table.append([
                "Now",
                "\(inProgress.course) \(inProgress.kind) until \(dates.time(inProgress.end)), \(inProgress.room)",
            ])
        }
        if let next {
            table.append([
                "Next class",
                "\(next.course) \(next.kind) · \(dates.day(next.start)) \(dates.timeRange(next.start, next.end)) · "
                    + DateText.relative(next.start, from: now),
            ])
            table.append(["", "\(next.room), \(next.campus) · \(next.lecturer)"])
        } else {
            table.append(["Next class", "none left this week"])
        }
        if let from {
            if let leg = bus {
                table.append([
                    "Next bus",
                    "\(leg.departureStop) -> \(leg.arrivalStop) · \(dates.dayAndTime(leg.predictedArrival)) · "
                        + DateText.relative(leg.predictedArrival, from: now),
                ])
            } else {
                table.append(["Next bus", "none left from \(from)"])
            }
        }
        if let park {
            table.append(["Parking", "\(park.name) (\(park.freeSlots) free)"])
        }
        context.print(table)
    }
}
