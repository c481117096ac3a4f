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
    /// What to do about a failure; `null` in JSON when there is nothing to do.
    var fix = Nullable<String>(nil)

    static func pass(_ check: String, _ message: String) -> DoctorCheck {
        DoctorCheck(check: check, status: .pass, message: message)
    }

    static func fail(_ check: String, _ message: String, fix: String) -> DoctorCheck {
        DoctorCheck(check: check, status: .fail, message: message, fix: Nullable(fix))
    }

    static func skip(_ check: String, _ message: String) -> DoctorCheck {
        DoctorCheck(check: check, status: .skip, message: message)
    }

    /// The line a person reads: `✔ message`, `✘ message Fix: …`, or `- message` for a skip.
    var line: String {
        switch status {
        case .pass: return "✔ \(message)"
        case .fail: return "✘ \(message)" + (fix.value.map { " Fix: \($0)" } ?? "")
        case .skip: return "- \(message)"
        }
    }
}
