import ArgumentParser
import CLISupport
import MonashSchedule

/// `monash buses [--from STOP]`: predicted bus legs, earliest first.
struct BusesCommand: MonashSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "buses",
        abstract: "List predicted campus buses, earliest first.",
        discussion: """
            Examples:
              monash --sandbox buses --from Clayton
              monash --sandbox buses --format jsonl
            """
    )

    @ParentCommand var monash: Monash

    @Option(help: ArgumentHelp("Only buses leaving this stop (any case).", valueName: "stop"))
    var from: String?

    func run(in context: CommandContext) async throws {
        let timetable = try await context.timetable()
        let legs: [BusLeg]
        if let from {
            legs = timetable.buses(from: from)
            if legs.isEmpty { context.note(timetable.noBusesNote(from: from)) }
        } else {
            legs = timetable.sortedStops
        }
        let zone = context.zone(monash.timeZone)
        let dates = zone.dates
        try context.printList(legs.map { BusJSON($0, dates: dates) }) {
            guard !legs.isEmpty else {
                context.print("No buses reported.")
                return
            }
            context.print("Times in \(zone.name)")
            context.print()
            var table = TextTable(columns: [.init("PREDICTED"), .init("FROM"), .init("TO")])
            for leg in legs {
                table.append([dates.dayAndTime(leg.predictedArrival), leg.departureStop, leg.arrivalStop])
            }
            context.print(table)
        }
    }
}
