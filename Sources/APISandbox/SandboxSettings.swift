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
}

/// An environment variable whose value a sandbox does not understand.
public struct SandboxSettingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The variable's name.
    public var variable: String
    /// What it was set to.
    public var value: String
    /// What it takes.
    public var expected: String

    /// `BASECAMP_SANDBOX_RATE_LIMIT='fast' is not understood: give REQUESTS/SECONDS (e.g. 50/10) or off.`
    public var description: String {
        "\(variable)='\(value)' is not understood: give \(expected)."
    }
}
