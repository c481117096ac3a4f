import ArgumentParser
import Foundation

/// `--refresh`: how often `calendar serve` may ask the API again: `90s`, `15m`, `2h`, or a bare
/// number of minutes.
struct RefreshArgument: ExpressibleByArgument, Equatable {
    /// The shortest allowed: the API is shared, and no calendar app polls more often.
    static let minimum = Duration.seconds(60)
    /// The longest allowed: a day.
    static let maximum = Duration.seconds(86_400)

    var duration: Duration

    init(duration: Duration) {
        self.duration = duration
    }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, seconds: Int64)] = [("s", 1), ("m", 60), ("h", 3600)]
        let unit = units.first { text.hasSuffix($0.suffix) }
        let digits = unit.map { String(text.dropLast($0.suffix.count)) } ?? text
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.count <= 6,
            let value = Int64(digits)
        else { return nil }
        duration = .seconds(value * (unit?.seconds ?? 60))
    }

    /// `15 min`, `90 s`, `2 h`, as the log and help show it.
    var text: String {
        let seconds = duration.components.seconds
        if seconds % 3600 == 0 { return "\(seconds / 3600) h" }
        if seconds % 60 == 0 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }

    var defaultValueDescription: String {
        text.replacingOccurrences(of: " min", with: "m").replacingOccurrences(of: " ", with: "")
    }
}
