import Foundation
import HTTPCore
import Markbook
import Testing

@Suite("The import plan: a sheet diffed against a table of intended results")
struct ImportPlanTests {
    let sheet = ImportFixtures.sheet

    func makePlan(_ rows: [[String]], rules: MarkbookResultRules = MarkbookResultRules()) throws -> MarkbookImportPlan {
        try sheet.importPlan(MarkbookGrid(table: rows), rules: rules)
    }

    @Test("The export read back changes nothing: every result is unchanged")
    func exportIsUnchanged() throws {
        let plan = try makePlan(ImportFixtures.rows)
        #expect(plan.changes.isEmpty)
        #expect(plan.unchanged.count == 8)
        #expect(plan.blankCells == 1, "Jack's geometry")
        #expect(plan.invalid.isEmpty && plan.unknownStudents.isEmpty && plan.unknownColumns.isEmpty)
        #expect(
            plan.unchanged.contains { $0.cell == MarkbookCell(studentKey: 5003, taskKey: 4004) && $0.value == "ABS" }
        )
    }

    @Test("Edits become changes with old and new values; equal values written differently are unchanged")
    func changes() throws {
        var rows = ImportFixtures.rows
        rows = ImportFixtures.edited(rows, sid: "100234", header: "Algebra test", "44")
        rows = ImportFixtures.edited(rows, sid: "100251", header: "Geometry assignment", "15.50")
        rows = ImportFixtures.edited(rows, sid: "100262", header: "Term 1 exam", "92")
        rows = ImportFixtures.edited(rows, sid: "100251", header: "Term 1 exam", "74.000")
        let plan = try makePlan(rows)
        #expect(
            plan.changes.map(\.id) == [
                MarkbookCell(studentKey: 5001, taskKey: 4001), MarkbookCell(studentKey: 5002, taskKey: 4002),
                MarkbookCell(studentKey: 5003, taskKey: 4004),
            ]
        )
        #expect(plan.changes.map(\.oldDisplay) == ["42.5", "", "ABS"])
        #expect(plan.changes.map(\.new) == ["44", "15.5", "92"])
        #expect(plan.changes.map(\.rowNumber) == [3, 4, 5])
        #expect(plan.changes[1].old == nil)
        #expect(plan.unchanged.count == 6, "74.000 equals 74")
        #expect(!plan.hasInvalidValues)
    }

    @Test("Blank cells change nothing, even where a result exists")
    func blanks() throws {
        let rows = ImportFixtures.edited(ImportFixtures.rows, sid: "100234", header: "Algebra test", "  ")
        let plan = try makePlan(rows)
        #expect(plan.changes.isEmpty)
        #expect(plan.blankCells == 2)
    }

    @Test("Invalid values are listed with row, column, value and reason")
    func invalid() throws {
        var rows = ImportFixtures.rows
        rows = ImportFixtures.edited(rows, sid: "100234", header: "Algebra test", "51")
        rows = ImportFixtures.edited(rows, sid: "100251", header: "Algebra test", "1e3")
        rows = ImportFixtures.edited(rows, sid: "100251", header: "Geometry assignment", "12,5")
        rows = ImportFixtures.edited(rows, sid: "100262", header: "Geometry assignment", "absent")
        rows = ImportFixtures.edited(rows, sid: "100262", header: "Algebra test", "40")
        let plan = try makePlan(rows)
        #expect(plan.hasInvalidValues)
        #expect(
            plan.invalid.map(\.reason) == [
                .value(.outOfRange(maximum: 50)), .value(.notADecimal), .value(.notADecimal), .value(.notANumber),
            ]
        )
        #expect(plan.invalid.map(\.rowNumber) == [3, 4, 4, 5])
        #expect(plan.invalid.map(\.columnNumber) == [6, 6, 7, 7])
        #expect(plan.invalid.first?.header == "Algebra test")
        #expect(plan.invalid.first?.value == "51")
        #expect(plan.changes.map(\.new) == ["40"], "valid cells are still planned")
    }

    @Test("A value already in the markbook is unchanged even when the rules would refuse it")
    func existingOutOfRules() throws {
        // Will's exam is "ABS", which the default rules refuse as new input.
        let plan = try makePlan(ImportFixtures.rows)
        #expect(plan.invalid.isEmpty)
        let text = try self.makePlan(
            ImportFixtures.edited(ImportFixtures.rows, sid: "100262", header: "Term 1 exam", "MED"),
            rules: MarkbookResultRules(allowsText: true)
        )
        #expect(text.changes.map(\.new) == ["MED"])
    }

    @Test("Unknown students and columns are reported (the importer decides what to refuse); tasks match by name or key")
    func unknowns() throws {
        let rows = [
            ["sid", "ALGEBRA TEST", "4002", "Comments", "Statistics", ""],
            ["100234", "45", "18", "good", "30", ""],
            ["999999", "10", "", "", "", ""],
            ["100251", "", "", "", "", "x"],
        ]
        let plan = try makePlan(rows)
        #expect(plan.changes.map(\.new) == ["45", "18"])
        #expect(plan.changes.map(\.task.key) == [4001, 4002])
        #expect(plan.unknownStudents == [.init(rowNumber: 3, sid: "999999")])
        #expect(plan.unknownColumns.map(\.header) == ["Comments", "Statistics", ""])
        #expect(plan.unknownColumns.map(\.columnNumber) == [4, 5, 6])
        #expect(!plan.hasInvalidValues)
    }

    @Test("A name two tasks share is ambiguous; a key heads the column instead")
    func ambiguousNames() throws {
        var sheet = sheet
        sheet.tasks.append(MarkbookTask(key: 4009, name: "algebra test", maximum: 10, decimalPlaces: 0))
        let plan = try sheet.importPlan(
            MarkbookGrid(table: [["sid", "Algebra test", "4009"], ["100234", "45", "9"]])
        )
        #expect(
            plan.unknownColumns == [.init(columnNumber: 2, header: "Algebra test", ambiguousTaskKeys: [4001, 4009])]
        )
        #expect(plan.changes.map(\.task.key) == [4009])
    }

    @Test("Two columns naming one task are refused: one would silently win")
    func duplicateTask() {
        #expect(throws: APIError.self) {
            try self.makePlan([["sid", "Algebra test", "4001"], ["100234", "45", "46"]])
        }
    }

    @Test("A row with results but no sid, and a sid given twice, are invalid rows")
    func untrustworthyRows() throws {
        let rows = [
            ["sid", "Algebra test"], ["", "30"], ["100234", "45"], ["100234", "46"], ["100234", ""], ["", ""],
        ]
        let plan = try makePlan(rows)
        #expect(plan.invalid.map(\.reason) == [.missingSID, .duplicateStudent(firstRowNumber: 3)])
        #expect(plan.invalid.map(\.rowNumber) == [2, 4])
        #expect(plan.changes.map(\.new) == ["45"])
    }
}
