import MonashSchedule

extension Timetable {
    /// What `--from STOP` says on stderr when no bus leaving `stop` is predicted: predictions
    /// come and go (none at night), so this is an empty answer, not an unknown stop, but the
    /// stops that have departures now show up a misspelt name.
    func noBusesNote(from stop: String) -> String {
        let stops = departureStops
        guard !stops.isEmpty else { return "No buses are predicted now." }
        return "No buses are predicted from \"\(stop)\" now; stops with departures: \(stops.joined(separator: ", "))."
    }
}
