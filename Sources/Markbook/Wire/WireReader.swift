import Foundation
import HTTPCore

/// Reads one JSON object of a Markbook response, naming the key path of anything malformed.
///
/// The API's documentation gives types but real servers drift (a key sent as `"42"`, a year as a
/// number), so reading is lenient where that cannot mislead and strict where it can:
/// - keys (`key`, `classkey`, …) must be whole numbers, as JSON numbers or digit strings;
/// - texts accept strings and numbers; a missing or `null` text is empty;
/// - lists must be arrays; a missing list is an error, because an empty markbook and a broken
///   response must not look alike.
struct WireReader {
    let members: [String: JSONValue]
    let path: String

    init(_ value: JSONValue, path: String = "") throws {
        guard case .object(let members) = value else {
            throw WireError(path: path.isEmpty ? "response" : path, expected: "an object")
        }
        self.members = members
        self.path = path
    }

    private func at(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    func has(_ key: String) -> Bool {
        if let value = members[key], value != .null { return true }
        return false
    }

    func int(_ key: String) throws -> Int {
        guard let value = members[key], let number = Self.int(value) else {
            throw WireError(path: at(key), expected: "a whole number")
        }
        return number
    }

    func optionalInt(_ key: String) throws -> Int? {
        guard has(key) else { return nil }
        return try int(key)
    }

    func string(_ key: String) throws -> String {
        guard let value = members[key] else { return "" }
        guard let text = Self.text(value) else {
            throw WireError(path: at(key), expected: "text")
        }
        return text
    }

    func array(_ key: String) throws -> [JSONValue] {
        guard let value = members[key], case .array(let items) = value else {
            throw WireError(path: at(key), expected: "a list")
        }
        return items
    }

    func objects(_ key: String) throws -> [WireReader] {
        try array(key).enumerated().map { index, item in try WireReader(item, path: "\(at(key))[\(index)]") }
    }

    func ints(_ key: String) throws -> [Int] {
        try array(key).enumerated().map { index, item in
            guard let number = Self.int(item) else {
                throw WireError(path: "\(at(key))[\(index)]", expected: "a whole number")
            }
            return number
        }
    }

    func strings(_ key: String) throws -> [String] {
        try array(key).enumerated().map { index, item in
            guard let text = Self.text(item) else {
                throw WireError(path: "\(at(key))[\(index)]", expected: "text")
            }
            return text
        }
    }

    static func int(_ value: JSONValue) -> Int? {
        switch value {
        case .integer(let number): return number
        case .number: return value.intValue
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isWholeNumber || $0 == "-") }) else {
                return nil
            }
            return Int(trimmed)
        default: return nil
        }
    }

    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .number(let number): return String(number)
        case .null: return ""
        default: return nil
        }
    }
}

/// A response that does not have the documented shape.
struct WireError: Error, CustomStringConvertible {
    var path: String
    var expected: String

    var description: String { "`\(path)` is not \(expected)" }
}
