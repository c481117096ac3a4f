import CLISupport
import Foundation
import HTTPCore

/// The progress line of an upload or a download: "Downloading report.pdf: 12.5 of 200.0 MiB (6%)".
enum TransferProgressText {
    static func reporter(
        _ verb: String,
        _ name: String,
        to progress: ProgressReporter
    ) -> (@Sendable (TransferProgress) -> Void)? {
        guard progress.isEnabled else { return nil }
        return { value in progress.update(line(verb, name, value)) }
    }

    static func line(_ verb: String, _ name: String, _ value: TransferProgress) -> String {
        let done = size(value.completed)
        guard let total = value.total, total > 0 else { return "\(verb) \(name): \(done)" }
        let percent = Int(Double(value.completed) / Double(total) * 100)
        return "\(verb) \(name): \(done) of \(size(total)) (\(percent)%)"
    }

    static func size(_ bytes: Int64) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f", value) + " " + units[unit]
    }
}
