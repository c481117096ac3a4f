import APISandbox
import ArgumentParser
import CLISupport
import Foundation
import MonashSandbox
import MonashSchedule

/// The root command: global options and the subcommands.
struct Monash: CommandLineTool {
    static let configuration = CommandConfiguration(
        commandName: "monash",
        abstract: "A Monash student's week: classes, car parks and campus buses.",
        discussion: GlobalOptions.discussion(
            environmentPrefix: "MONASH",
            variables: [(name: "MONASH_SANDBOX_WEEK", meaning: "'large': --sandbox serves the busier example week")]
        ) + "\n\nTry it without a server: monash --sandbox timetable",
        version: "0.1.0",
        subcommands: [TimetableCommand.self, ParkingCommand.self, BusesCommand.self, NextCommand.self]
    )

    static let environmentPrefix = "MONASH"
    static let sandboxBasePath = MonashSandboxModule.defaultBasePath

    @available(macOS 14, iOS 17, tvOS 17, *)
    static func sandboxModules(environment: CLIEnvironment) -> [any SandboxModule] {
        let week = environment.variables["MONASH_SANDBOX_WEEK"].flatMap { MonashSandboxModule.Week(rawValue: $0) }
        return [MonashSandboxModule(defaultWeek: week ?? .sample)]
    }

    @OptionGroup var global: GlobalOptions
}

extension CommandContext {
    /// Fetches the week from the API the global options point at.
    func timetable() async throws -> Timetable {
        let connection = try await connection()
        let client = try ScheduleClient(configuration: connection.configuration, transport: connection.transport)
        return try await client.timetable()
    }
}
