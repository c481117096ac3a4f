import Foundation
import HTTPCore

/// A small, strict reader and writer for comma- and tab-separated text (RFC 4180), for tables
/// such as ``MarkbookGrid/table()``.
///
/// Reading takes UTF-8 with or without a byte order mark, CRLF, LF or CR line breaks, and quoted
/// fields holding delimiters, doubled quotes and line breaks. It is strict where leniency would
/// guess: a quote inside an unquoted field, text after a closing quote, an unterminated quote and
/// bytes that are not UTF-8 are errors naming the line, never a silently shifted column. Writing
/// quotes a field only when it holds the delimiter, a quote or a line break, and ends every
/// record with CRLF. TSV uses the same quoting, as spreadsheets do.
///
/// ```swift
/// let rows = try DelimitedText.csv.read(Data(contentsOf: file))
/// let grid = try MarkbookGrid(table: rows)
/// try DelimitedText.csv.data(grid.table(), byteOrderMark: true).write(to: output)
/// ```
public struct DelimitedText: Sendable, Hashable {
    /// The field separator.
    public var delimiter: Unicode.Scalar

    /// Comma-separated values.
    public static let csv = DelimitedText(delimiter: ",")
    /// Tab-separated values.
    public static let tsv = DelimitedText(delimiter: "\t")

    /// Creates a format with `delimiter`, which must not be a quote or a line break.
    public init(delimiter: Unicode.Scalar) {
        self.delimiter = delimiter
    }

    /// UTF-8's byte order mark, which spreadsheets on Windows need to read UTF-8 text as UTF-8.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    // MARK: Reading

    /// Reads UTF-8 bytes, with or without a byte order mark.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` for bytes that are not UTF-8 or malformed quoting.
    public func read(_ data: Data) throws -> [[String]] {
        let content = data.starts(with: Self.byteOrderMark) ? data.dropFirst(Self.byteOrderMark.count) : data[...]
        guard let text = String(data: Data(content), encoding: .utf8) else {
            throw APIError.usage("The file is not UTF-8 text.", hint: "Save it as \"CSV UTF-8\" (or UTF-8 text).")
        }
        return try read(text)
    }

    /// Reads text; a leading byte order mark is ignored.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` for malformed quoting.
    public func read(_ text: String) throws -> [[String]] {
        var reader = Reader(delimiter: delimiter)
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        for scalar in scalars { try reader.consume(scalar) }
        return try reader.finish()
    }

    /// The parsing state machine: one scalar at a time, fields and records as they end.
    private struct Reader {
        enum State {
            case fieldStart
            case unquoted
            case quoted
            case quoteInQuoted
            case afterCR
        }

        let delimiter: Unicode.Scalar
        var state = State.fieldStart
        var field = String.UnicodeScalarView()
        var record: [String] = []
        var records: [[String]] = []
        var line = 1
        var quoteLine = 1

        init(delimiter: Unicode.Scalar) {
            self.delimiter = delimiter
        }

        mutating func consume(_ scalar: Unicode.Scalar) throws {
            switch state {
            case .afterCR:
                state = .fieldStart
                if scalar == "\n" { return }
                try consume(scalar)
            case .quoted:
                if scalar == "\"" {
                    state = .quoteInQuoted
                } else {
                    if scalar == "\n" { line += 1 }
                    field.append(scalar)
                }
            case .quoteInQuoted:
                if scalar == "\"" {
                    field.append(scalar)
                    state = .quoted
                } else if scalar == delimiter || scalar == "\n" || scalar == "\r" {
                    endField(then: scalar)
                } else {
                    throw APIError.usage(
                        "Line \(line): text after a closing quote; a quote inside a quoted field is written \"\"."
                    )
                }
            case .fieldStart, .unquoted:
                if scalar == "\"" {
                    guard state == .fieldStart else {
                        throw APIError.usage(
                            "Line \(line): a quote inside an unquoted field.",
                            hint: "Quote the whole field and double the quote inside it: \"12\"\"\"."
                        )
                    }
                    state = .quoted
                    quoteLine = line
                } else if scalar == delimiter || scalar == "\n" || scalar == "\r" {
                    endField(then: scalar)
                } else {
                    field.append(scalar)
                    state = .unquoted
                }
            }
        }

        private mutating func endField(then separator: Unicode.Scalar) {
            record.append(String(field))
            field = String.UnicodeScalarView()
            state = .fieldStart
            guard separator != delimiter else { return }
            records.append(record)
            record = []
            line += 1
            if separator == "\r" { state = .afterCR }
        }

        mutating func finish() throws -> [[String]] {
            switch state {
            case .quoted:
                throw APIError.usage("Line \(quoteLine): a quoted field is never closed.")
            case .afterCR:
                break
            case .fieldStart where record.isEmpty:
                break
            case .fieldStart, .unquoted, .quoteInQuoted:
                record.append(String(field))
                records.append(record)
            }
            return records
        }
    }

    // MARK: Writing

    /// The rows as text, every record ended by CRLF.
    public func string(_ rows: [[String]]) -> String {
        var text = ""
        for row in rows {
            text += DelimitedField.record(row, delimiter: delimiter)
            text += "\r\n"
        }
        return text
    }

    /// The rows as UTF-8, optionally after a byte order mark.
    public func data(_ rows: [[String]], byteOrderMark: Bool = false) -> Data {
        (byteOrderMark ? Data(Self.byteOrderMark) : Data()) + Data(string(rows).utf8)
    }

}
