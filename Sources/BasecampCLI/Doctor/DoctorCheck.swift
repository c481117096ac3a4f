import CLISupport
import Foundation

/// One line of `basecamp doctor`: what was checked, how it went, and what to do when it failed.
struct DoctorCheck: Encodable, Sendable, Equatable {
    /// How a check went.
    enum Status: String, Encodable, Sendable {
        /// It holds.
        case pass
        /// It does not: ``DoctorCheck/fix`` says what to do.
        case fail
        /// It does not apply here (a token given instead of a sign-in, no server to ask).
        case skip
    }

    /// A stable name for scripts: `config_folder`, `clock`, `authorization_server`…
    var check: String
    /// How it went.
    var status: Status
    /// What was found, in a sentence; never a token or a secret.
    var message: String
    /// What to do about a failure.
    var fix: String?

    private enum CodingKeys: String, CodingKey {
        case check, status, message, fix
    }

    /// Every key, `fix` `null` when there is nothing to do, as every tool's JSON is.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(check, forKey: .check)
        try container.encode(status, forKey: .status)
        try container.encode(message, forKey: .message)
        try container.encode(fix, forKey: .fix)
    }

    static func pass(_ check: String, _ message: String) -> DoctorCheck {
        DoctorCheck(check: check, status: .pass, message: message)
    }

    static func fail(_ check: String, _ message: String, fix: String) -> DoctorCheck {
        DoctorCheck(check: check, status: .fail, message: message, fix: fix)
    }

    static func skip(_ check: String, _ message: String) -> DoctorCheck {
        DoctorCheck(check: check, status: .skip, message: message)
    }

    /// The line a person reads: `✔ message`, `✘ message Fix: …`, or `- message` for a skip.
    var line: String {
        switch status {
        case .pass: return "✔ \(message)"
        case .fail: return "✘ \(message)" + (fix.map { " Fix: \($0)" } ?? "")
        case .skip: return "- \(message)"
        }
    }
}
