import Foundation
import HTTPCore
import Markbook

/// The `--format json` form of a markbook's grid, which `markbook import` reads back:
///
/// ```json
/// {"markbook": {"key": 1000001, "name": "10 Maths"},
///  "tasks": [{"key": 4001, "name": "Algebra test", "maximum": 50}],
///  "students": [{"sid": "100234", "familyName": "Adams", "givenName": "Olivia", "preferredName": "",
///                "class": "10MAT1-A", "results": {"Algebra test": "42.5"}}]}
/// ```
///
/// A student's `results` are keyed by the task's column header: its name, or where another task
/// shares the name its key, which the task then gives as `header`. A result that is absent or
/// `null` is blank, which an import reads as "no change".
struct GridDocument: Codable, Sendable {
    struct MarkbookInfo: Codable, Sendable {
        var key: Int
        var name: String
    }

    struct TaskInfo: Codable, Sendable {
        var key: Int?
        var name: String
        /// The results' key for this task when it is not the name.
        var header: String?
        var maximum: Int?

        var columnHeader: String { header ?? name }
    }

    struct StudentInfo: Codable, Sendable {
        var sid: String
        var familyName: String?
        var givenName: String?
        var preferredName: String?
        var className: String?
        var results: [String: ResultValue?]?

        enum CodingKeys: String, CodingKey {
            case sid, familyName, givenName, preferredName, results
            case className = "class"
        }
    }

    /// A result as a string (`"42.5"`, `"A"`) or a JSON number (`42.5`).
    struct ResultValue: Codable, Sendable {
        var text: String

        init(_ text: String) {
            self.text = text
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self.text = text
            } else {
                let number = try container.decode(Decimal.self)
                self.text = "\(number)"
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(text)
        }
    }

    var markbook: MarkbookInfo?
    var tasks: [TaskInfo]?
    var students: [StudentInfo]

    /// The document of `sheet`, headed as ``MarkbookGrid/init(sheet:)`` heads its columns.
    init(sheet: MarkbookSheet) {
        let grid = MarkbookGrid(sheet: sheet)
        markbook = MarkbookInfo(key: sheet.key, name: sheet.name)
        tasks = zip(sheet.tasks, grid.taskColumns).map { task, column in
            TaskInfo(
                key: task.key,
                name: task.name,
                header: column.header == task.name ? nil : column.header,
                maximum: task.maximum
            )
        }
        students = grid.rows.map { row in
            var results: [String: ResultValue?] = [:]
            for (column, cell) in zip(grid.taskColumns, row.cells) {
                let value: ResultValue? = cell.isEmpty ? nil : ResultValue(cell)
                results[column.header] = .some(value)
            }
            return StudentInfo(
                sid: row.sid,
                familyName: row.familyName,
                givenName: row.givenName,
                preferredName: row.preferredName,
                className: row.className,
                results: results
            )
        }
    }

    /// The document as the table ``MarkbookGrid/init(table:)`` reads: the tasks listed first, in
    /// order, then any other result keys in name order; row N of the table is student N - 1.
    func table() -> [[String]] {
        var headers = (tasks ?? []).map(\.columnHeader)
        let listed = Set(headers)
        let others = Set(students.flatMap { ($0.results ?? [:]).keys }).subtracting(listed).sorted()
        headers += others
        var table = [MarkbookGrid.identityHeaders + headers]
        for student in students {
            let results = student.results ?? [:]
            let cells = headers.map { header in results[header].flatMap { $0?.text } ?? "" }
            table.append(
                [
                    student.sid, student.familyName ?? "", student.givenName ?? "", student.preferredName ?? "",
                    student.className ?? "",
                ] + cells
            )
        }
        return table
    }
}
