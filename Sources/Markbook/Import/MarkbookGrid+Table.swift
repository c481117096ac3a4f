import Foundation
import HTTPCore

extension MarkbookGrid {
    /// The table as rows of text: the header, the maxima row (when any column has a maximum),
    /// then one row per student. Write it with any CSV, TSV or JSON writer.
    public func table() -> [[String]] {
        var table = [Self.identityHeaders + taskColumns.map(\.header)]
        if taskColumns.contains(where: { $0.maximum != nil }) {
            let blanks = Array(repeating: "", count: Self.identityHeaders.count - 1)
            table.append([Self.maximumRowLabel] + blanks + taskColumns.map { $0.maximum ?? "" })
        }
        for row in rows {
            let cells = (0..<taskColumns.count).map { $0 < row.cells.count ? row.cells[$0] : "" }
            table.append([row.sid, row.familyName, row.givenName, row.preferredName, row.className] + cells)
        }
        return table
    }

    /// Reads a table written by ``table()``, or edited in a spreadsheet since.
    ///
    /// The first row that is not empty is the header. Columns may come in any order; identity
    /// headers are recognised whatever their case, spaces, `_` or `-` (`sid`, `student id`;
    /// `family name`, `surname`, `last name`; `given name`, `first name`; `preferred name`;
    /// `class`, `class name`); every other column is a task column. Cells are kept as written
    /// (an import trims them); rows shorter than the header are padded with blank cells, and
    /// values right of the last header belong to task columns with a blank header.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` when the table is empty, has no `sid` column,
    ///   names an identity column twice, or has two task columns with the same header.
    public init(table: [[String]]) throws {
        guard let headerIndex = table.firstIndex(where: { !Self.isBlank($0) }) else {
            throw APIError.usage("The table is empty: it needs a header row with a sid column.")
        }
        // Values typed right of the last header still belong to a column: a blank-headed one.
        let width = table.dropFirst(headerIndex).map(\.count).max() ?? 0
        let header = table[headerIndex] + Array(repeating: "", count: width - table[headerIndex].count)
        let headerRowNumber = headerIndex + 1
        var identity: [Identity: Int] = [:]
        var taskColumns: [TaskColumn] = []
        var taskIndices: [Int] = []
        for (index, title) in header.enumerated() {
            if let field = Identity(header: title) {
                if identity[field] != nil {
                    throw APIError.usage(
                        "The header (row \(headerRowNumber)) has two \(field.rawValue) columns.",
                        hint: "Keep one column per identity field: \(Self.identityHeaders.joined(separator: ", "))."
                    )
                }
                identity[field] = index
                continue
            }
            let trimmed = title.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty, taskColumns.contains(where: { Self.sameHeader($0.header, trimmed) }) {
                throw APIError.usage("The header (row \(headerRowNumber)) has two columns named \"\(trimmed)\".")
            }
            taskColumns.append(TaskColumn(header: trimmed, columnNumber: index + 1))
            taskIndices.append(index)
        }
        guard let sidIndex = identity[.sid] else {
            throw APIError.usage(
                "The header (row \(headerRowNumber)) has no sid column.",
                hint: "Students are matched by their school id: add a column headed \"sid\"."
            )
        }
        func cell(_ line: [String], _ index: Int?) -> String {
            guard let index, index < line.count else { return "" }
            return line[index]
        }
        var rows: [Row] = []
        for (offset, line) in table.enumerated().dropFirst(headerIndex + 1) where !Self.isBlank(line) {
            let rowNumber = offset + 1
            let sid = cell(line, sidIndex).trimmingCharacters(in: .whitespaces)
            let cells = taskIndices.map { cell(line, $0) }
            if sid.lowercased() == Self.maximumRowLabel {
                for (column, value) in cells.enumerated() where taskColumns[column].maximum == nil {
                    taskColumns[column].maximum = value.trimmingCharacters(in: .whitespaces)
                }
                continue
            }
            rows.append(
                Row(
                    sid: sid,
                    familyName: cell(line, identity[.familyName]),
                    givenName: cell(line, identity[.givenName]),
                    preferredName: cell(line, identity[.preferredName]),
                    className: cell(line, identity[.className]),
                    cells: cells,
                    rowNumber: rowNumber
                )
            )
        }
        self.init(taskColumns: taskColumns, rows: rows)
    }

    private static func isBlank(_ line: [String]) -> Bool {
        line.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// The identity columns and the header spellings each answers to (compared with case,
    /// spaces, `_` and `-` ignored).
    enum Identity: String {
        case sid
        case familyName = "family name"
        case givenName = "given name"
        case preferredName = "preferred name"
        case className = "class"

        init?(header: String) {
            let key = header.lowercased().filter { !" _-\t".contains($0) }
            switch key {
            case "sid", "studentid": self = .sid
            case "familyname", "family", "surname", "lastname": self = .familyName
            case "givenname", "given", "givename", "firstname": self = .givenName
            case "preferredname", "preferred": self = .preferredName
            case "class", "classname": self = .className
            default: return nil
            }
        }
    }
}
