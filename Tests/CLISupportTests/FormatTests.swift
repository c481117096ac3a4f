import ArgumentParser
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

@Suite("--format and --fields")
struct FormatTests {
    /// Runs with wide help, so a usage message stays on one line.
    func run(_ arguments: [String]) async -> CommandResult {
        await CLIRunner.capture(TestTool.self, arguments: arguments) { $0.columns = 1000 }
    }

    @Test("table is the command's own; --json and --format json are the same array")
    func tableAndJSON() async throws {
        let table = await run(["records"])
        #expect(table.stdout == "ID  NAME\n 1  Ada, \"the\" first\n22  Tab here\n")
        let json = await run(["records", "--json"])
        let format = await run(["records", "--format", "json"])
        #expect(json.stdout == format.stdout)
        let rows = try json.json([[String: JSONValue]].self)
        #expect(rows.map { $0["id"] } == [1, 22])
        #expect(rows[1]["note"] == nil)
    }

    @Test("csv: a header, RFC 4180 quoting, nested values as JSON, missing ones empty")
    func csv() async {
        let result = await run(["records", "--format", "csv"])
        #expect(result.exitCode == 0)
        #expect(
            result.stdout == """
                creator,id,name,note,score,tags
                "{""id"":7,""name"":""Bo""}",1,"Ada, ""the"" first","line one
                line two",9.5,"[""math"",""code""]"
                "{""id"":8,""name"":""Cy""}",22,Tab\there,,,[]

                """
        )
    }

    @Test("tsv: tabs, newlines and backslashes in values are escaped, so a row is a line")
    func tsv() async {
        let result = await run(["records", "--format", "tsv", "--fields", "id,name,note"])
        #expect(result.stdout == "id\tname\tnote\n1\tAda, \"the\" first\tline one\\nline two\n22\tTab\\there\t\n")
    }

    @Test("jsonl: one compact object per line")
    func jsonl() async throws {
        let result = await run(["records", "--format", "jsonl", "--fields", "id,creator.name"])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines == [#"{"creator":{"name":"Bo"},"id":1}"#, #"{"creator":{"name":"Cy"},"id":22}"#])
    }

    @Test("--fields picks and orders columns, dotted paths reach into objects and lists")
    func fields() async {
        let csv = await run(["records", "--format", "csv", "--fields", "creator.name,id,tags"])
        #expect(csv.stdout == "creator.name,id,tags\nBo,1,\"[\"\"math\"\",\"\"code\"\"]\"\nCy,22,[]\n")
        let table = await run(["records", "--fields", "id,creator.name,tags"])
        #expect(table.stdout == "ID  CREATOR.NAME  TAGS\n 1  Bo            math, code\n22  Cy\n")
        let json = await run(["records", "--format", "json", "--fields", "creator.name"])
        #expect(json.stdout.contains(#""creator" : {"#) && !json.stdout.contains(#""id" : 7"#))
    }

    @Test("An unknown field is a usage error (exit 64) naming the fields there are")
    func unknownField() async throws {
        let top = await run(["records", "--format", "csv", "--fields", "id,nmae"])
        #expect(top.exitCode == 64)
        #expect(top.stdout.isEmpty)
        #expect(
            top.stderr.contains(#"--fields: no field "nmae"; the fields are: creator, id, name, note, score, tags."#)
        )
        let nested = await run(["records", "--fields", "creator.nmae"])
        #expect(nested.exitCode == 64)
        #expect(nested.stderr.contains(#"no field "creator.nmae"; creator has: creator.id, creator.name."#))
        let json = await run(["records", "--format", "jsonl", "--fields", "x"])
        #expect(json.exitCode == 64)
        #expect(try json.errorReport().code == "usage")
    }

    @Test(
        "A malformed --fields list or --json with another format is refused",
        arguments: [
            ["records", "--fields", "id,,name"], ["records", "--fields", "id,id"], ["records", "--fields", "creator."],
            ["records", "--json", "--format", "csv"], ["records", "--format", "xml"],
        ]
    )
    func malformed(arguments: [String]) async {
        let result = await run(arguments)
        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
    }

    @Test("An unknown --format is refused with the five values it takes, in order")
    func unknownFormat() async {
        let result = await run(["records", "--format", "xml"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("Please provide one of 'table', 'json', 'jsonl', 'csv' or 'tsv'."))
    }

    @Test("An empty list: csv prints the header of the fields asked for (none without), json an empty array")
    func empty() async throws {
        #expect(await run(["records", "--none", "--format", "csv", "--fields", "id,name"]).stdout == "id,name\n")
        // No columns to name: no header, and no empty line a reader would take for a record.
        #expect(await run(["records", "--none", "--format", "csv"]).stdout.isEmpty)
        #expect(await run(["records", "--none", "--format", "tsv"]).stdout.isEmpty)
        #expect(try await run(["records", "--none", "--format", "json"]).json([JSONValue].self).isEmpty)
        #expect(await run(["records", "--none", "--format", "jsonl"]).stdout.isEmpty)
    }

    @Test("A single record: one row in csv, one line in jsonl, field lines in a table")
    func record() async {
        #expect(await run(["record"]).stdout == "Record 1\n")
        #expect(
            await run(["record", "--format", "csv", "--fields", "id,name"]).stdout
                == "id,name\n1,\"Ada, \"\"the\"\" first\"\n"
        )
        let jsonl = await run(["record", "--format", "jsonl", "--fields", "id"])
        #expect(jsonl.stdout == "{\"id\":1}\n")
        #expect(await run(["record", "--fields", "id,creator.name"]).stdout == "id            1\ncreator.name  Bo\n")
    }

    @Test("Errors are a JSON object on stderr under json and jsonl, text under csv")
    func errors() async throws {
        let jsonl = await run(["--format", "jsonl", "fail"])
        #expect(try jsonl.errorReport().code == "api_error")
        let parseError = await run(["--format=jsonl", "records", "--bogus"])
        #expect(try parseError.errorReport().code == "usage")
        let csv = await run(["--format", "csv", "fail"])
        #expect(csv.stderr.hasPrefix("error: It failed."))
    }
}

@Suite("Field selection and delimited text")
struct FieldSelectionTests {
    let records: [JSONValue] = [
        ["id": 1, "creator": ["name": "Bo"], "assignees": [["name": "A"], ["name": "B"]]],
        ["id": 2, "creator": nil, "assignees": []],
    ]

    @Test("Values by path: through objects and lists; missing is nil, null stays null, also part-way")
    func values() throws {
        let selection = try FieldSelection(FieldList(["creator.name", "assignees.name", "id"]), records: records)
        #expect(selection.values(of: records[0]) == [.string("Bo"), .array(["A", "B"]), 1])
        #expect(selection.values(of: records[1]) == [.null, nil, 2])
    }

    @Test("A path through a member that is null in the only record is accepted, with no value")
    func pathThroughNull() throws {
        let record: JSONValue = ["now": "08:00", "nextClass": nil]
        let selection = try FieldSelection(FieldList(["now", "nextClass.start"]), records: [record])
        #expect(selection.values(of: record) == ["08:00", .null])
        #expect(throws: ValidationError.self) { try FieldSelection(FieldList(["now.start"]), records: [record]) }
        // Beside a record that shows what the member holds, a name it lacks is still a typo.
        let shown: JSONValue = ["now": "09:00", "nextClass": ["start": "10:00"]]
        #expect(throws: ValidationError.self) {
            try FieldSelection(FieldList(["nextClass.strat"]), records: [record, shown])
        }
        #expect(
            try FieldSelection(FieldList(["nextClass.start"]), records: [record, shown]).values(of: record) == [.null]
        )
    }

    @Test("A subset keeps the nesting and puts null where a record lacks a field")
    func subset() throws {
        let selection = try FieldSelection(FieldList(["creator.name", "id"]), records: records)
        #expect(selection.subset(of: records[0]) == ["creator": ["name": "Bo"], "id": 1])
        #expect(selection.subset(of: records[1]) == ["creator": nil, "id": 2])
    }

    @Test(
        "CSV quotes only when needed; TSV escapes",
        arguments: [
            (
                ["plain", "a,b", "say \"hi\"", "two\nlines", "cr\r"],
                #"plain,"a,b","say ""hi""","two"# + "\nlines\",\"cr\r\""
            ),
            (["", "ünï", "1.5"], ",ünï,1.5"),
            // A comma joined to a combining mark is one Character but still a comma to a reader.
            (["1,\u{301}5", "x"], "\"1,\u{301}5\",x"),
        ]
    )
    func csv(fields: [String], line: String) {
        #expect(DelimitedCells.csvLine(fields) == line)
    }

    @Test("TSV escaping round trip of the awkward characters")
    func tsv() {
        #expect(DelimitedCells.tsvLine(["a\tb", "c\\d", "e\nf\rg"]) == "a\\tb\tc\\\\d\te\\nf\\rg")
    }

    @Test("Cells: strings bare, numbers and booleans as JSON, null empty")
    func cells() {
        #expect(DelimitedCells.cell(.string("x")) == "x")
        #expect(DelimitedCells.cell(.integer(3)) == "3")
        #expect(DelimitedCells.cell(.number(2.5)) == "2.5")
        #expect(DelimitedCells.cell(.bool(false)) == "false")
        #expect(DelimitedCells.cell(.null) == "")
        #expect(DelimitedCells.cell(nil) == "")
        #expect(DelimitedCells.cell(["b": 1, "a": [true]]) == #"{"a":[true],"b":1}"#)
    }
}
