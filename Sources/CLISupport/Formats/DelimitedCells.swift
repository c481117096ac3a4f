import Foundation
public import HTTPCore

/// Writes CSV and TSV lines, and the text of one JSON value in a cell.
public enum DelimitedCells {
    /// A value as cell text: strings as they are, numbers and `true`/`false` as JSON writes them,
    /// `null` (or a missing field) empty, lists and objects as compact JSON.
    public static func cell(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: return ""
        case .string(let text)?: return text
        case .bool(let flag)?: return flag ? "true" : "false"
        case let value?: return String(decoding: value.encoded(), as: UTF8.self)
        }
    }

    /// One CSV record (RFC 4180): a field with a comma, a double quote, CR or LF is put in
    /// double quotes with its quotes doubled. No line ending.
    public static func csvLine(_ fields: [String]) -> String {
        DelimitedField.record(fields, delimiter: ",")
    }

    /// One TSV record: fields joined by tabs, with backslash, tab, LF and CR escaped as `\\`,
    /// `\t`, `\n` and `\r` so each record stays on one line. No line ending.
    public static func tsvLine(_ fields: [String]) -> String {
        fields.map { field in
            var escaped = ""
            for scalar in field.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\\\"
                case "\t": escaped += "\\t"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped
        }
        .joined(separator: "\t")
    }
}
