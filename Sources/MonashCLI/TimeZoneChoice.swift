import ArgumentParser
import CLISupport
import Foundation
import MonashSchedule

/// `--time-zone`: the zone times are shown in, an IANA name such as `Europe/London`, or `local`
/// for the computer's own; the campus zone when not given.
enum TimeZoneChoice: ExpressibleByArgument {
    case local
    case named(TimeZone)

    init?(argument: String) {
        if argument.lowercased() == "local" {
            self = .local
        } else if let zone = TimeZone(identifier: argument) {
            self = .named(zone)
        } else {
            return nil
        }
    }
}

extension CommandContext {
    /// The zone `--time-zone` names: the campus zone (Australia/Melbourne) by default, which is
    /// what a student's timetable means.
    func zone(_ choice: TimeZoneChoice?) -> TimeZone {
        switch choice {
        case nil: return ScheduleClient.defaultTimeZone
        case .local: return environment.timeZone
        case .named(let zone): return zone
        }
    }
}
