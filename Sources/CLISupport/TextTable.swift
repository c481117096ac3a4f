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
/// Columns are separated by two spaces, and no line ends in spaces. Widths are terminal columns
/// (``DisplayWidth``: CJK and emoji take two, combining marks none). Given a width, the table
/// fits it by cutting its widest text columns, each cut cell ending in `…`; number columns are
/// never cut.
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

    /// The narrowest a text column is cut to, so a cut cell still says something.
    public static let minimumColumnWidth = 8

    /// The header line and one line per row, joined by newlines; no trailing newline.
    ///
    /// - Parameter width: The terminal columns to fit in; `nil` for no limit. A table whose
    ///   number columns and narrowest text columns cannot fit is printed at that narrowest.
    public func render(width: Int? = nil) -> String {
        let lines =
            (showsHeader ? [columns.map(\.header)] : [])
            + rows.map { row in
                columns.indices.map { index in
                    // Tabs and newlines would break the alignment, so cells stay on one line.
                    index < row.count ? Self.oneLine(row[index]) : ""
                }
            }
        guard !lines.isEmpty else { return "" }
        let natural = columns.indices.map { index in lines.map { DisplayWidth.of($0[index]) }.max() ?? 0 }
        let widths = width.map { fitted(natural, into: $0) } ?? natural
        return lines.map { cells in
            var line = ""
            for (index, cell) in cells.enumerated() {
                let text = DisplayWidth.truncate(cell, toFit: widths[index])
                let padding = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(text)))
                if index > 0 { line += "  " }
                line += columns[index].alignment == .right ? padding + text : text + padding
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
        .joined(separator: "\n")
    }

    /// Narrows the widest text column, again and again, until the line fits `width` or every
    /// text column is at ``minimumColumnWidth`` (or its header, if wider).
    private func fitted(_ natural: [Int], into width: Int) -> [Int] {
        var widths = natural
        let separators = 2 * max(0, widths.count - 1)
        while widths.reduce(separators, +) > width {
            let shrinkable = columns.indices.filter { index in
                columns[index].alignment == .left && widths[index] > narrowest(index)
            }
            guard let widest = shrinkable.max(by: { widths[$0] < widths[$1] }) else { break }
            let excess = widths.reduce(separators, +) - width
            let others = shrinkable.filter { $0 != widest }.map { widths[$0] }.max() ?? 0
            // Cut down to the next widest column first, so the cut is shared among wide columns.
            let target = max(widths[widest] - excess, others, narrowest(widest))
            widths[widest] = target < widths[widest] ? target : widths[widest] - 1
        }
        return widths
    }

    private func narrowest(_ index: Int) -> Int {
        max(Self.minimumColumnWidth, showsHeader ? DisplayWidth.of(columns[index].header) : 0)
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
}
