/// Rows of text in aligned columns, for human output of lists.
///
/// ```swift
/// var table = TextTable(columns: [.init("CAR PARK"), .init("FREE", alignment: .right)])
/// table.append(["Clayton live feed", "645"])
/// context.print(table)
/// // CAR PARK           FREE
/// // Clayton live feed   645
/// ```
///
/// Columns are separated by two spaces, and no line ends in spaces. Widths count characters
/// (grapheme clusters), which suits the Latin text the APIs return.
public struct TextTable: Sendable, Hashable {
    /// How a column's cells line up.
    public enum Alignment: Sendable, Hashable {
        /// Text columns.
        case left
        /// Number columns.
        case right
    }

    /// A column heading and its alignment.
    public struct Column: Sendable, Hashable {
        /// The heading, printed as given (the convention is upper case).
        public var header: String
        /// How the cells line up.
        public var alignment: Alignment

        /// Creates a column.
        public init(_ header: String, alignment: Alignment = .left) {
            self.header = header
            self.alignment = alignment
        }
    }

    /// The columns, left to right.
    public var columns: [Column]
    /// The rows; a short row is padded with empty cells, extra cells are ignored.
    public var rows: [[String]]
    /// Whether the header line is printed; turn it off for label–value lists.
    public var showsHeader: Bool

    /// Creates a table.
    public init(columns: [Column], rows: [[String]] = [], showsHeader: Bool = true) {
        self.columns = columns
        self.rows = rows
        self.showsHeader = showsHeader
    }

    /// Adds a row.
    public mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The header line and one line per row, joined by newlines; no trailing newline.
    public func render() -> String {
        let lines =
            (showsHeader ? [columns.map(\.header)] : [])
            + rows.map { row in
                columns.indices.map { index in
                    // Tabs and newlines would break the alignment, so cells stay on one line.
                    index < row.count ? Self.oneLine(row[index]) : ""
                }
            }
        let widths = columns.indices.map { index in lines.map { $0[index].count }.max() ?? 0 }
        guard !lines.isEmpty else { return "" }
        return lines.map { cells in
            var line = ""
            for (index, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                if index > 0 { line += "  " }
                line += columns[index].alignment == .right ? padding + cell : cell + padding
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
        .joined(separator: "\n")
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
}
