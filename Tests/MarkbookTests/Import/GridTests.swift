import Foundation
import HTTPCore
import Markbook
import Testing

@Suite("The students × tasks grid as a table")
struct GridTests {
    @Test("A sheet's grid: identity columns, one column per task, maxima on the second row, short results")
    func export() {
        let rows = MarkbookGrid(sheet: ImportFixtures.sheet).table()
        #expect(
            rows == [
                [
                    "sid", "family name", "given name", "preferred name", "class", "Algebra test",
                    "Geometry assignment", "Term 1 exam",
                ],
                ["maximum", "", "", "", "", "50", "20", "100"],
                ["100234", "Adams", "Olivia", "", "10MAT1-A", "42.5", "17", "81"],
                ["100251", "Brown", "Jack", "", "10MAT1-A", "38", "", "74"],
                ["100262", "Chen", "William", "Will", "10MAT1-B", "47", "19", "ABS"],
            ]
        )
    }

    @Test("Reading back what was written gives the same grid, through CSV and TSV")
    func roundTrip() throws {
        let grid = MarkbookGrid(sheet: ImportFixtures.sheet)
        for format in [DelimitedText.csv, .tsv] {
            let read = try MarkbookGrid(table: format.read(format.data(grid.table(), byteOrderMark: true)))
            #expect(read == grid)
        }
    }

    @Test("Tasks that share a name are headed by their keys, so the export imports back with nothing to change")
    func sharedTaskNames() throws {
        var sheet = ImportFixtures.sheet
        sheet.tasks.append(MarkbookTask(key: 4009, name: "algebra TEST", maximum: 10, decimalPlaces: 0))
        sheet.results[5001]?[4009] = ImportFixtures.result("7.000000")
        let grid = MarkbookGrid(sheet: sheet)
        #expect(grid.taskColumns.map(\.header) == ["4001", "Geometry assignment", "Term 1 exam", "4009"])
        let read = try MarkbookGrid(table: DelimitedText.csv.read(DelimitedText.csv.data(grid.table())))
        let plan = try sheet.importPlan(read)
        #expect(plan.unknownColumns.isEmpty)
        #expect(plan.changes.isEmpty)
        #expect(plan.unchanged.count == 9)
    }

    @Test("Tasks named like an identity column, or not named, are headed by their keys and import back unchanged")
    func identityLikeTaskNames() throws {
        var sheet = ImportFixtures.sheet
        sheet.tasks.append(MarkbookTask(key: 4010, name: "Class", maximum: 5, decimalPlaces: 0))
        sheet.tasks.append(MarkbookTask(key: 4011, name: "First name", maximum: 5, decimalPlaces: 0))
        sheet.tasks.append(MarkbookTask(key: 4012, name: " ", maximum: 5, decimalPlaces: 0))
        for key in [4010, 4011, 4012] { sheet.results[5001]?[key] = ImportFixtures.result("3.000000") }
        let grid = MarkbookGrid(sheet: sheet)
        #expect(grid.taskColumns.suffix(3).map(\.header) == ["4010", "4011", "4012"])
        let read = try MarkbookGrid(table: DelimitedText.csv.read(DelimitedText.csv.data(grid.table())))
        let plan = try sheet.importPlan(read)
        #expect(plan.unknownColumns.isEmpty)
        #expect(plan.changes.isEmpty)
        #expect(plan.unchanged.count == 11)
    }

    @Test("Re-ordered and extra columns, other header spellings, a moved maxima row, blank and short rows")
    func tolerantReading() throws {
        let rows = [
            [],
            ["Term 1 exam", "Notes", "Surname", "Student ID", "First_Name", "Algebra test"],
            ["81", "keen", "Adams", "100234", "Olivia"],
            ["", "", "", "", "", ""],
            ["74", "", "Brown", " 100251 ", "Jack", "38", "stray"],
            ["100", "", "", "MAXIMUM", "", "50"],
        ]
        let grid = try MarkbookGrid(table: rows)
        #expect(grid.taskColumns.map(\.header) == ["Term 1 exam", "Notes", "Algebra test", ""])
        #expect(grid.taskColumns.map(\.columnNumber) == [1, 2, 6, 7])
        #expect(grid.taskColumns.map(\.maximum) == ["100", "", "50", ""])
        #expect(grid.rows.map(\.sid) == ["100234", "100251"])
        #expect(grid.rows.map(\.rowNumber) == [3, 5])
        #expect(grid.rows[0].familyName == "Adams" && grid.rows[0].givenName == "Olivia")
        #expect(grid.rows[0].cells == ["81", "keen", "", ""], "a short row is padded with blanks")
        #expect(grid.cell(grid.rows[1], header: "algebra TEST") == "38")
        #expect(grid.rows[1].cells.last == "stray", "a value right of the header lands in a blank-headed column")
    }

    @Test("A table without a sid column, with a repeated identity column or a repeated task header is refused")
    func refused() {
        for (rows, fragment) in [
            ([[String]](), "empty"),
            ([["family name", "Algebra test"], ["Adams", "1"]], "no sid column"),
            ([["sid", "Surname", "family name"]], "two family name columns"),
            ([["sid", "Algebra test", " algebra test "]], "two columns named \"algebra test\""),
        ] {
            do {
                _ = try MarkbookGrid(table: rows)
                Issue.record("read \(rows)")
            } catch let error as APIError {
                #expect(error.code == .usage)
                #expect(error.message.contains(fragment), "\(error.message)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
