import Foundation

/// A sandbox's settings as environment variables spell them, for `api-sandbox` and the tools'
/// `--sandbox`; a value that is not understood is an error naming the variable.
public enum SandboxSettings {
    /// The rate limit `variable` sets: `off`, or `REQUESTS/SECONDS` (`50/10`, `20/0.5`); `default`
    /// when it is unset or empty.
    ///
    /// - Throws: ``SandboxSettingError`` for any other value.
    public static func rateLimit(
        _ variable: String,
        in environment: [String: String],
        default: SandboxRateLimit?
    ) throws(SandboxSettingError) -> SandboxRateLimit? {
        guard let text = environment[variable], !text.isEmpty else { return `default` }
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        if value == "off" { return nil }
        let parts = value.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let requests = Int(parts[0]), requests > 0,
            let seconds = Double(parts[1]), seconds > 0, seconds < 86_400
        else {
            throw SandboxSettingError(variable: variable, value: text, expected: "REQUESTS/SECONDS (e.g. 50/10) or off")
        }
        return SandboxRateLimit(requests, per: .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }

    /// The size `variable` sets, in bytes: a whole number, optionally ending in `K`, `M` or `G`
    /// (binary: `2G` is 2 GiB); `default` when it is unset or empty.
    ///
    /// - Throws: ``SandboxSettingError`` for any other value.
    public static func byteCount(
        _ variable: String,
        in environment: [String: String],
        default: Int64
    ) throws(SandboxSettingError) -> Int64 {
        guard let text = environment[variable], !text.isEmpty else { return `default` }
        let value = text.trimmingCharacters(in: .whitespaces).uppercased()
        let shifts: [Character: Int64] = ["K": 10, "M": 20, "G": 30]
        let shift = value.last.flatMap { shifts[$0] } ?? 0
        guard let number = Int64(shift > 0 ? String(value.dropLast()) : value), number > 0,
            number <= Int64.max >> shift
        else {
            throw SandboxSettingError(
                variable: variable,
                value: text,
                expected: "a number of bytes, e.g. 1048576 or 2G"
            )
        }
        return number << shift
    }

    /// The signed number of seconds `variable` sets (`300`, `-90`, `1.5`), at most a year
    /// either way; `default` when it is unset or empty.
    ///
    /// - Throws: ``SandboxSettingError`` for any other value.
    public static func seconds(
        _ variable: String,
        in environment: [String: String],
        default: Duration
    ) throws(SandboxSettingError) -> Duration {
        guard let text = environment[variable], !text.isEmpty else { return `default` }
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite,
            abs(seconds) <= 31_536_000
        else {
            throw SandboxSettingError(variable: variable, value: text, expected: "seconds, e.g. 300 or -90")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// The whole number `variable` sets, at least `minimum`; `default` when it is unset or empty.
    ///
    /// - Throws: ``SandboxSettingError`` for any other value.
    public static func integer(
        _ variable: String,
        in environment: [String: String],
        default: Int,
        minimum: Int
    ) throws(SandboxSettingError) -> Int {
        guard let text = environment[variable], !text.isEmpty else { return `default` }
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)), number >= minimum else {
            throw SandboxSettingError(
                variable: variable,
                value: text,
                expected: "a whole number of at least \(minimum)"
            )
        }
        return number
    }

    /// Whether the switch `variable` is on: `1`, `true`, `yes` or `on` (in any case); `0`,
    /// `false`, `no`, `off`, unset or empty is off.
    ///
    /// - Throws: ``SandboxSettingError`` for any other value, so a misspelt switch is not quietly off.
    public static func flag(_ variable: String, in environment: [String: String]) throws(SandboxSettingError) -> Bool {
        guard let text = environment[variable], !text.isEmpty else { return false }
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default:
            throw SandboxSettingError(variable: variable, value: text, expected: "1 or 0 (also true/false, yes/no)")
        }
    }
}

/// An environment variable whose value a sandbox does not understand.
public struct SandboxSettingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The variable's name.
    public var variable: String
    /// What it was set to.
    public var value: String
    /// What it takes.
    public var expected: String

    /// Creates the error for a module's own setting.
    ///
    /// - Parameters:
    ///   - variable: The variable's name.
    ///   - value: What it was set to.
    ///   - expected: What it takes, as the message ends: "give `expected`."
    public init(variable: String, value: String, expected: String) {
        self.variable = variable
        self.value = value
        self.expected = expected
    }

    /// `BASECAMP_SANDBOX_RATE_LIMIT='fast' is not understood: give REQUESTS/SECONDS (e.g. 50/10) or off.`
    public var description: String {
        "\(variable)='\(value)' is not understood: give \(expected)."
    }
}
