import ArgumentParser
import CLISupport
import MonashSchedule

/// `monash parking`: car parks by free spaces, most first.
struct ParkingCommand: MonashSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "parking",
        abstract: "List car parks by free spaces, most first.",
        discussion: """
            Examples:
              monash --sandbox parking
              monash --sandbox parking --format tsv --fields name,freeSlots
            """
    )

    @ParentCommand var monash: Monash

    func run(in context: CommandContext) async throws {
        let timetable = try await context.timetable()
        // Most free first; a tie keeps the API's order, like Timetable.carParkWithMostFreeSlots.
        let parks = timetable.parkings.enumerated()
            .sorted { ($1.element.freeSlots, $0.offset) < ($0.element.freeSlots, $1.offset) }
            .map(\.element)
        try context.printList(parks.map(CarParkJSON.init)) {
            guard !parks.isEmpty else {
                context.print("No car parks reported.")
                return
            }
            var table = TextTable(columns: [.init("CAR PARK"), .init("FREE", alignment: .right)])
            for park in parks {
                table.append([park.name, String(park.freeSlots)])
            }
            context.print(table)
        }
    }
}
