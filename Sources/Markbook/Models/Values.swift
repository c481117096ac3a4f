import Foundation

/// A student's gender as the API spells it.
public enum Gender: String, Sendable, Hashable, CaseIterable, Codable {
    /// `male`.
    case male
    /// `female`.
    case female
    /// `other`.
    case other
}

/// One student's result for one task, as the API sends it (text), with numbers where the text
/// is one.
///
/// The API sends results as strings: the raw mark (`"67.500000"`) and the mark rounded to the
/// task's decimal places (`"68"`). ``rawValue`` and ``roundedValue`` read them as numbers when
/// they are plain decimals; a result such as `"ABS"` keeps its text and has no number.
public struct MarkbookResult: Sendable, Hashable, Codable {
    /// The raw result text, e.g. `"67.500000"`.
    public var raw: String
    /// The result rounded to the task's decimal places, e.g. `"68"`.
    public var rounded: String

    /// Creates a result.
    public init(raw: String, rounded: String) {
        self.raw = raw
        self.rounded = rounded
    }

    /// The raw result as a number, when it is a plain decimal.
    public var rawValue: Double? { MarkbookNumber.parse(raw) }
    /// The rounded result as a number, when it is a plain decimal.
    public var roundedValue: Double? { MarkbookNumber.parse(rounded) }
    /// Whether both texts are empty: the student has no result for the task.
    public var isEmpty: Bool {
        raw.trimmingCharacters(in: .whitespaces).isEmpty && rounded.trimmingCharacters(in: .whitespaces).isEmpty
    }
}

/// A student's level for one outcome, as the API sends it (text), with a number where the text
/// is one.
public struct OutcomeLevel: Sendable, Hashable, Codable {
    /// The level as sent, e.g. `"3"` or `"B"`.
    public var text: String

    /// Creates a level.
    public init(_ text: String) {
        self.text = text
    }

    /// The level as a number, when it is a plain decimal.
    public var value: Double? { MarkbookNumber.parse(text) }
    /// Whether the level is empty: not assessed.
    public var isEmpty: Bool { text.trimmingCharacters(in: .whitespaces).isEmpty }
}

/// Reads the API's number texts strictly: an optional sign, digits, an optional fraction.
///
/// `Double(_:)` alone would also accept `nan`, `inf` and hexadecimal floats, which no mark is.
enum MarkbookNumber {
    static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard PlainDecimal(trimmed) != nil, let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }
}
