import Foundation
import Markbook

/// A small markbook for plan tests: three students, three tasks, a few results.
enum ImportFixtures {
    static let algebra = MarkbookTask(key: 4001, name: "Algebra test", maximum: 50, decimalPlaces: 1)
    static let geometry = MarkbookTask(key: 4002, name: "Geometry assignment", maximum: 20, decimalPlaces: 0)
    static let exam = MarkbookTask(key: 4004, name: "Term 1 exam", maximum: 100, decimalPlaces: 0)

    static let olivia = MarkbookStudent(
        key: 5001,
        studentID: "100234",
        familyName: "Adams",
        givenName: "Olivia",
        preferredName: "",
        classKey: 3001,
        className: "10MAT1-A"
    )
    static let jack = MarkbookStudent(
        key: 5002,
        studentID: "100251",
        familyName: "Brown",
        givenName: "Jack",
        preferredName: "",
        classKey: 3001,
        className: "10MAT1-A"
    )
    static let will = MarkbookStudent(
        key: 5003,
        studentID: "100262",
        familyName: "Chen",
        givenName: "William",
        preferredName: "Will",
        classKey: 3002,
        className: "10MAT1-B"
    )

    static func result(_ raw: String) -> MarkbookResult {
        MarkbookResult(raw: raw, rounded: raw)
    }

    /// Olivia: 42.5, 17, 81. Jack: 38, -, 74. Will: 47, 19, ABS.
    static let sheet = MarkbookSheet(
        key: 1_000_001,
        name: "10MAT1 Mathematics",
        year: "2024",
        course: "Year 10 Mathematics",
        ownerKey: 101,
        shareList: [],
        classes: [],
        tasks: [algebra, geometry, exam],
        students: [olivia, jack, will],
        results: [
            5001: [4001: result("42.500000"), 4002: result("17.000000"), 4004: result("81.000000")],
            5002: [4001: result("38.000000"), 4004: result("74.000000")],
            5003: [4001: result("47.000000"), 4002: result("19.000000"), 4004: result("ABS")],
        ]
    )

    /// The grid of ``sheet`` as rows, which tests edit.
    static var rows: [[String]] { MarkbookGrid(sheet: sheet).table() }

    /// `rows` with the cell at (`sid`, `header`) replaced by `value`.
    static func edited(_ rows: [[String]], sid: String, header: String, _ value: String) -> [[String]] {
        var rows = rows
        guard let column = rows[0].firstIndex(of: header),
            let row = rows.firstIndex(where: { $0.first == sid })
        else { return rows }
        rows[row][column] = value
        return rows
    }
}
