import Foundation

/// What a result value may be before it is written: the rules an import and
/// ``MarkbookClient/setResult(markbookKey:studentKey:taskKey:to:rules:)`` apply, so that nothing the
/// API would store wrongly or surprisingly is sent.
///
/// A result is a plain decimal — digits with at most one decimal point and an optional sign — from
/// 0 to the task's maximum, with at most six decimal places (the precision of the API's raw
/// results, `"67.500000"`; a longer value would read back as a different one). Text that looks
/// numeric but is not a plain decimal (`1e3`, `NaN`, `inf`, `0x10`, `12,5`) is always refused:
/// a spreadsheet or locale produced it, and guessing its value could put a wrong mark in the
/// markbook. Free text (`ABS`) is refused unless ``allowsText``.
///
/// ```swift
/// let rules = MarkbookResultRules()
/// try rules.check("42.50", for: task).get()   // "42.5"
/// rules.check("1e3", for: task)               // .failure(.notADecimal)
/// ```
public struct MarkbookResultRules: Sendable, Hashable {
    /// The most decimal places a result keeps: raw results are answered with six.
    public static let maximumDecimalPlaces = 6

    /// Whether numbers below 0 or above the task's maximum are accepted.
    public var allowsOutOfRange: Bool
    /// Whether free text (a value with no digits, such as `ABS`) is accepted as it is.
    public var allowsText: Bool

    /// Creates rules; by default only plain decimals from 0 to the task's maximum pass.
    public init(allowsOutOfRange: Bool = false, allowsText: Bool = false) {
        self.allowsOutOfRange = allowsOutOfRange
        self.allowsText = allowsText
    }

    /// Checks `value` for `task` and returns the text to write: the decimal in its shortest form
    /// (`"042.50"` → `"42.5"`), or free text trimmed.
    public func check(_ value: String, for task: MarkbookTask) -> Result<String, MarkbookValueProblem> {
        check(value, maximum: task.maximum)
    }

    /// What is wrong with `value` whatever the task: everything ``check(_:for:)`` refuses except a
    /// number out of range; `nil` when nothing is. For checking input before the task is known.
    public func formatProblem(_ value: String) -> MarkbookValueProblem? {
        guard case .failure(let problem) = check(value, maximum: nil) else { return nil }
        return problem
    }

    /// Checks `value`, and its range when `maximum` is given.
    private func check(_ value: String, maximum: Int?) -> Result<String, MarkbookValueProblem> {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .failure(.controlCharacters)
        }
        guard let decimal = PlainDecimal(trimmed) else {
            if PlainDecimal.looksNumeric(trimmed) { return .failure(.notADecimal) }
            return allowsText ? .success(trimmed) : .failure(.notANumber)
        }
        if decimal.fractionDigits.count > Self.maximumDecimalPlaces {
            return .failure(.tooManyDecimalPlaces(allowed: Self.maximumDecimalPlaces))
        }
        if let maximum, !allowsOutOfRange, decimal.isNegative || decimal.exceeds(maximum) {
            return .failure(.outOfRange(maximum: maximum))
        }
        return .success(decimal.canonical)
    }

    /// Whether two result texts mean the same result: equal decimals (`"67.500000"` and `"67.5"`)
    /// or, for text, equal after trimming.
    public static func sameResult(_ first: String, _ second: String) -> Bool {
        let left = first.trimmingCharacters(in: .whitespaces)
        let right = second.trimmingCharacters(in: .whitespaces)
        if let leftNumber = PlainDecimal(left), let rightNumber = PlainDecimal(right) {
            return leftNumber.canonical == rightNumber.canonical
        }
        return left == right
    }

    /// A result as an export shows it: a decimal in its shortest form (`"67.500000"` →
    /// `"67.5"`), text as it is.
    public static func display(_ raw: String) -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        return PlainDecimal(trimmed)?.canonical ?? trimmed
    }
}

/// Why a value cannot be written as a result.
public enum MarkbookValueProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// It looks like a number but is not a plain decimal (`1e3`, `NaN`, `inf`, `0x10`, `12,5`).
    case notADecimal
    /// It is free text, which the rules do not allow.
    case notANumber
    /// It is below 0 or above the task's maximum.
    case outOfRange(maximum: Int)
    /// It has more decimal places than the API keeps.
    case tooManyDecimalPlaces(allowed: Int)
    /// It contains a line break or another control character.
    case controlCharacters

    /// A short stable code for scripts: `not_a_decimal`, `not_a_number`, `out_of_range`,
    /// `too_many_decimal_places`, `control_characters`.
    public var code: String {
        switch self {
        case .notADecimal: return "not_a_decimal"
        case .notANumber: return "not_a_number"
        case .outOfRange: return "out_of_range"
        case .tooManyDecimalPlaces: return "too_many_decimal_places"
        case .controlCharacters: return "control_characters"
        }
    }

    /// A sentence for people, e.g. `out of range: the maximum is 50`.
    public var description: String {
        switch self {
        case .notADecimal:
            return "not a plain decimal (write digits with an optional point, e.g. 12.5)"
        case .notANumber: return "not a number"
        case .outOfRange(let maximum): return "out of range: results go from 0 to \(maximum)"
        case .tooManyDecimalPlaces(let allowed): return "more than \(allowed) decimal places"
        case .controlCharacters: return "contains a line break or other control character"
        }
    }
}

/// A plain decimal read digit by digit, so its value is exact and never goes through a `Double`.
struct PlainDecimal: Hashable {
    var isNegative: Bool
    /// Whole part without leading zeros; empty for zero.
    var integerDigits: Substring
    /// Fraction without trailing zeros.
    var fractionDigits: Substring

    /// Reads `[+-]digits[.digits]` (either side of the point may be empty, not both).
    init?(_ text: String) {
        var rest = Substring(text)
        var negative = false
        if let sign = rest.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            rest = rest.dropFirst()
        }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        let isDigit: (Character) -> Bool = { $0.isASCII && $0.isWholeNumber }
        guard !(whole.isEmpty && fraction.isEmpty), whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit) else {
            return nil
        }
        integerDigits = whole.drop { $0 == "0" }
        var trimmedFraction = fraction
        while trimmedFraction.last == "0" { trimmedFraction = trimmedFraction.dropLast() }
        fractionDigits = trimmedFraction
        isNegative = negative && !(integerDigits.isEmpty && fractionDigits.isEmpty)
    }

    /// The shortest text for the value: no `+`, no leading or trailing zeros, `0` for zero.
    var canonical: String {
        let whole = integerDigits.isEmpty ? "0" : String(integerDigits)
        let sign = isNegative ? "-" : ""
        return fractionDigits.isEmpty ? sign + whole : "\(sign)\(whole).\(fractionDigits)"
    }

    /// Whether the (non-negative) value is above `maximum`.
    func exceeds(_ maximum: Int) -> Bool {
        let limit = String(max(maximum, 0))
        let whole = integerDigits.isEmpty ? "0" : String(integerDigits)
        if whole.count != limit.count { return whole.count > limit.count }
        if whole != limit { return whole > limit }
        return !fractionDigits.isEmpty
    }

    /// Whether text that is not a plain decimal still looks like a number: it has a digit or other
    /// numeric character (`½`, `٣`), or it is a spelling of infinity or not-a-number.
    static func looksNumeric(_ text: String) -> Bool {
        let lowered = text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "+-"))
        return text.contains { $0.isNumber } || ["nan", "inf", "infinity"].contains(lowered)
    }
}
