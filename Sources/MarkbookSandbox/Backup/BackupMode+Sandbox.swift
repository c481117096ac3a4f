import Foundation
import HTTPCore

@available(macOS 14, iOS 17, tvOS 17, *)
extension MarkbookSandboxOptions.BackupMode {
    /// The status `getbackupurl` answers whatever was scheduled, in the modes that fix one.
    var forcedStatus: String? {
        switch self {
        case .pending: return "ERROR:pending"
        case .none: return "ERROR:no backup"
        case .scheduled, .ready: return nil
        }
    }
}

extension SandboxWorld {
    /// Puts a backup of every markbook in place, built at `now`, as if it had been scheduled the
    /// day before (``MarkbookSandboxOptions/BackupMode/ready``).
    mutating func seedReadyBackup(now: Date) {
        backup = Backup(
            matching: "",
            scheduledAt: now.addingTimeInterval(-86_400),
            readyAt: now,
            fileName: "markbook-backup-\(now.formatted(.compactUTCTimestamp)).zip",
            firstReturnedAt: nil
        )
    }
}
