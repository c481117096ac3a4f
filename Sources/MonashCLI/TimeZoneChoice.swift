import ArgumentParser
import CLISupport
import Foundation
import MonashSchedule

/// `--time-zone`: the zone times are shown in, an IANA name such as `Europe/London`, or `local`
/// for the computer's own; the campus zone when not given.
///
/// The name is kept as the user spelled it (in the IANA database's case), because Foundation
/// reports some zones under another name: `TimeZone(identifier: "UTC")` calls itself `GMT`.
enum TimeZoneChoice: ExpressibleByArgument {
    case local
    case named(TimeZone, name: String)

    init?(argument: String) {
        let trimmed = argument.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "local" {
            self = .local
        } else if let zone = TimeZone(identifier: trimmed) {
            self = .named(zone, name: trimmed)
        } else if let known = Self.knownName(matching: trimmed), let zone = TimeZone(identifier: known) {
            self = .named(zone, name: known)
        } else {
            return nil
        }
    }

    /// The database's spelling of `name` when it differs only in case (`europe/london`, `utc`).
    private static func knownName(matching name: String) -> String? {
        (["UTC"] + TimeZone.knownTimeZoneIdentifiers).first { $0.caseInsensitiveCompare(name) == .orderedSame }
    }
}

/// A zone to show times in, with the name to print for it.
struct ShownZone {
    /// The zone times are computed in.
    var timeZone: TimeZone
    /// What the output calls it: the user's `--time-zone`, or the zone's own identifier.
    var name: String

    /// Formats dates in this zone.
    var dates: DateText { DateText(timeZone: timeZone) }
}

extension CommandContext {
    /// The zone `--time-zone` names: the campus zone (``campusZone()``) by default, which is
    /// what a student's timetable means.
    ///
    /// `local` is named by the `TZ` variable when it is set and names the zone in use (so
    /// `TZ=UTC` prints `UTC`), else by the zone's identifier.
    func zone(_ choice: TimeZoneChoice?) -> ShownZone {
        switch choice {
        case nil:
            // The campus zone, named as MONASH_CAMPUS_ZONE spells it; a bad name is reported where
            // the week is fetched.
            if let campus = toolVariable("CAMPUS_ZONE").flatMap(TimeZoneChoice.init(argument:)) { return zone(campus) }
            let campus = ScheduleClient.defaultTimeZone
            return ShownZone(timeZone: campus, name: campus.identifier)
        case .local:
            let local = environment.timeZone
            let variable = variable("TZ").map { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }
            if let variable, TimeZone(identifier: variable)?.identifier == local.identifier {
                return ShownZone(timeZone: local, name: variable)
            }
            return ShownZone(timeZone: local, name: local.identifier)
        case .named(let zone, let name):
            return ShownZone(timeZone: zone, name: name)
        }
    }
}
