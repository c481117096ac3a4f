import Foundation

/// Reads a `Retry-After` header (RFC 9110 §10.2.3).
public enum RetryAfter {
    /// The wait the header asks for, or `nil` when it should be ignored.
    ///
    /// Accepts delta-seconds (`120`) and HTTP dates. Returns `nil` — meaning "use your own
    /// backoff" — for zero, negative or partly numeric values, dates in the past, and anything
    /// unparseable. Very large values saturate rather than overflow.
    ///
    /// - Parameters:
    ///   - value: The header value.
    ///   - now: The current time, for HTTP dates.
    public static func parse(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard let first = trimmed.utf8.first else { return nil }
        if first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") {
            guard trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            // Leading zeros say nothing; anything longer than 12 digits is more than 30,000
            // years: saturate.
            let digits = trimmed.drop { $0 == "0" }
            let seconds = digits.count > 12 ? 999_999_999_999 : (Int64(digits) ?? 0)
            return seconds > 0 ? .seconds(seconds) : nil
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let interval = date.timeIntervalSince(now)
        guard interval > 0 else { return nil }
        return .milliseconds(Int64(min(interval, 999_999_999_999) * 1000))
    }
}
