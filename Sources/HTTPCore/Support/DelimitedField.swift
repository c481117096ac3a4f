/// How a field is quoted in comma-separated text (RFC 4180) and in tab-separated text meant for
/// spreadsheets: one rule for every such writer in the package, so what one writes, the others
/// and a spreadsheet read back the same.
package enum DelimitedField {
    /// `field` as it stands between `delimiter`s: unchanged, unless it holds the delimiter, a
    /// double quote, CR or LF; then in double quotes, each double quote inside doubled.
    ///
    /// The test is on Unicode scalars, not characters, so a delimiter or line break that a
    /// combining mark joins into one character (`",\u{301}"`, `"\r\n"`) is still found.
    package static func quoted(_ field: String, delimiter: Unicode.Scalar = ",") -> String {
        let needsQuotes = field.unicodeScalars.contains { $0 == delimiter || $0 == "\"" || $0 == "\n" || $0 == "\r" }
        guard needsQuotes else { return field }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in field.unicodeScalars {
            if scalar == "\"" { quoted.append("\"") }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }

    /// One record: the fields quoted as ``quoted(_:delimiter:)`` says and joined by `delimiter`,
    /// without a line ending (CSV files end records with CRLF, terminal output with LF).
    package static func record(_ fields: [String], delimiter: Unicode.Scalar = ",") -> String {
        fields.map { quoted($0, delimiter: delimiter) }.joined(separator: String(Character(delimiter)))
    }
}
