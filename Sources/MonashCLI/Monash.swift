import APISandbox
import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import MonashSandbox
import MonashSchedule

/// The root command: global options and the subcommands.
struct Monash: CommandLineTool {
    static let configuration = CommandConfiguration(
        commandName: "monash",
        abstract: "A Monash student's week: classes, car parks and campus buses.",
        discussion: GlobalOptions.discussion(
            environmentPrefix: "MONASH",
            variables: [
                (name: "MONASH_SANDBOX_WEEK", meaning: "'large': --sandbox serves the busier example week"),
                (
                    name: "MONASH_CAMPUS_ZONE",
                    meaning: "the zone the API's times are in, an IANA name (Australia/Melbourne)"
                ),
            ]
        )
            + "\n\nTimes are shown in the campus zone (MONASH_CAMPUS_ZONE, else Australia/Melbourne) unless "
            + "--time-zone names another. "
            + "The API carries no credentials, so a plain http base URL is accepted for any host. "
            + "Under --sandbox the example week is moved to this week (or the next, once this week's last class has ended)."
            + "\n\nTry it without a server:\n  monash --sandbox next\n  monash --sandbox timetable --format csv",
        version: "0.1.0",
        subcommands: [
            TimetableCommand.self, ParkingCommand.self, BusesCommand.self, NextCommand.self, CalendarCommand.self,
        ]
    )

    static let environmentPrefix = "MONASH"
    static let sandboxBasePath = MonashSandboxModule.defaultBasePath
    /// The schedule API takes no credentials, so plain http exposes nothing secret.
    static let allowsInsecureHTTP = true

    @available(macOS 14, iOS 17, tvOS 17, *)
    static func sandboxModules(environment: CLIEnvironment) throws -> [any SandboxModule] {
        var week = MonashSandboxModule.Week.sample
        if let choice = environment.variables["MONASH_SANDBOX_WEEK"], !choice.isEmpty {
            guard let chosen = MonashSandboxModule.Week(rawValue: choice.lowercased()) else {
                let weeks = MonashSandboxModule.Week.allCases.map(\.rawValue).joined(separator: " or ")
                throw ConfigurationError("MONASH_SANDBOX_WEEK is \"\(choice.prefix(40))\"; it can be \(weeks).")
            }
            week = chosen
        }
        // The sandbox writes the week in the zone the tool reads it in, as the campus's API would;
        // a name that is no zone is reported where the week is read.
        let zone: TimeZone
        switch environment.variables["MONASH_CAMPUS_ZONE"].flatMap({ TimeZoneChoice(argument: $0) }) {
        case .named(let named, _)?: zone = named
        case .local?: zone = environment.timeZone
        case nil: zone = MonashSandboxModule.campusZone
        }
        let clock = environment.clock
        return [MonashSandboxModule(defaultWeek: week, today: { clock.now() }, timeZone: zone)]
    }

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customLong("time-zone"),
        help: ArgumentHelp(
            "The zone times are shown in: an IANA name such as Europe/London, or local for this computer's (default: the campus zone, Australia/Melbourne).",
            valueName: "zone"
        )
    )
    var timeZone: TimeZoneChoice?
}

/// A `monash` subcommand: it reaches the root, and so the global options and `--time-zone`,
/// through `@ParentCommand var monash`.
protocol MonashSubcommand: ToolCommand {
    /// The root command.
    var monash: Monash { get }
}

extension MonashSubcommand {
    var global: GlobalOptions { monash.global }
}

extension CommandContext {
    /// Fetches the week from the API the global options point at.
    func timetable() async throws -> Timetable {
        let zone = try campusZone()
        let connection = try await connection()
        let client = try ScheduleClient(
            configuration: connection.configuration,
            timeZone: zone,
            transport: connection.transport
        )
        return try await client.timetable()
    }

    /// The zone the API's times are read in: `MONASH_CAMPUS_ZONE`, else Australia/Melbourne.
    ///
    /// - Throws: ``ConfigurationError`` (exit 1) for a name that is no time zone.
    func campusZone() throws -> TimeZone {
        guard let name = toolVariable("CAMPUS_ZONE") else { return ScheduleClient.defaultTimeZone }
        switch TimeZoneChoice(argument: name) {
        case .named(let zone, _)?: return zone
        case .local?: return environment.timeZone
        case nil:
            throw ConfigurationError(
                "MONASH_CAMPUS_ZONE is \"\(name.prefix(40))\", which names no time zone.",
                hint: "Give an IANA name such as Asia/Kuala_Lumpur, or unset it for Australia/Melbourne."
            )
        }
    }
}
