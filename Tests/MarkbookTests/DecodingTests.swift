import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import MarkbookSandbox
import Testing

@Suite("Decoding: joined results, numbers, payloads")
struct DecodingTests {
    /// The client answering from one Spec example.
    private func answer(_ example: String) throws -> (ScriptedTransport, MarkbookClient) {
        let file = try #require(MarkbookSpecPayloads.examples[example])
        let response = try #require(try JSONValue(parsing: Data(file.utf8))["response"])
        let transport = ScriptedTransport([loginOK, .json(response)])
        return (transport, try scriptedClient(transport))
    }

    @Test("getmarkbook (arrays) and getmarkbookalt (flat list) give the same joined results")
    func bothSheetFormats() async throws {
        let arrays = try await answer("getmarkbook.json").1.getMarkbook(key: 1_000_001)
        let flat = try await answer("getmarkbookalt.json").1.getMarkbookAlt(key: 1_000_001)
        #expect(arrays == flat)
        #expect(arrays.results.count == 2)
        let olivia = try #require(arrays.result(studentKey: 5001, taskKey: 4001))
        #expect(olivia.raw == "42.500000")
        #expect(olivia.rounded == "42.5")
        #expect(olivia.rawValue == 42.5)
        #expect(olivia.roundedValue == 42.5)
        #expect(arrays.result(studentKey: 5001, taskKey: 4002)?.roundedValue == 17)
        #expect(arrays.student(sid: "100251")?.givenName == "Jack")
        #expect(arrays.task(key: 4004)?.maximum == 100)
        #expect(arrays.markbookClass(key: 3002)?.teacherName == "Mr Tom Reynolds")
        #expect(arrays.shareList == [2002])
    }

    @Test("MarkbookSheet.decode reads a stored answer exactly as the client does")
    func decodeStoredAnswer() async throws {
        for (example, alternate) in [("getmarkbook.json", false), ("getmarkbookalt.json", true)] {
            let file = try #require(MarkbookSpecPayloads.examples[example])
            let response = try #require(try JSONValue(parsing: Data(file.utf8))["response"])
            let viaClient =
                alternate
                ? try await answer(example).1.getMarkbookAlt(key: 1_000_001)
                : try await answer(example).1.getMarkbook(key: 1_000_001)
            #expect(try MarkbookSheet.decode(from: response.encoded(), alternate: alternate) == viaClient)
        }
        let refused: JSONValue = ["status": "ERROR:invalid student", "action": "getmarkbook"]
        #expect(throws: APIError.self) { try MarkbookSheet.decode(from: refused.encoded()) }
        #expect(throws: APIError.self) { try MarkbookSheet.decode(from: Data("not json".utf8)) }
    }

    @Test("getoutcomes and getoutcomesalt give the same joined levels")
    func bothOutcomeFormats() async throws {
        let arrays = try await answer("getoutcomes.json").1.getOutcomes(key: 1_000_001)
        let flat = try await answer("getoutcomesalt.json").1.getOutcomesAlt(key: 1_000_001)
        #expect(arrays == flat)
        #expect(arrays.markbookKey == 1_000_001)
        #expect(arrays.level(studentKey: 5001, outcomeKey: 6004)?.value == 5)
        #expect(
            arrays.outcomes.map(\.label) == ["MA5-ALG-C-01", "MA5-GEO-C-01", "MA5-DAT-C-01", "Working mathematically"]
        )
        #expect(arrays.outcomes[0].taskKeys == [4001, 4004])
    }

    @Test(
        "Results are numbers only when they are plain decimals",
        arguments: [
            ("67.500000", 67.5), ("68", 68), (" 9.5 ", 9.5), ("-2", -2), ("+3.25", 3.25), (".5", 0.5),
        ]
    )
    func numbers(_ text: String, _ value: Double) {
        #expect(MarkbookResult(raw: text, rounded: text).rawValue == value)
        #expect(OutcomeLevel(text).value == value)
    }

    @Test(
        "Text results keep their text and have no number",
        arguments: ["ABS", "", "nan", "inf", "0x1p3", "1e3", "1.2.3", "-", "4/5"]
    )
    func notNumbers(_ text: String) {
        #expect(MarkbookResult(raw: text, rounded: text).rawValue == nil)
    }

    @Test("Empty results are left out of the lookup; keys sent as strings are read")
    func leniency() async throws {
        let body = envelope(
            "getmarkbookalt",
            [
                "markbookkey": "7", "markbookname": "M", "markbookyear": 2024, "markbookcourse": "C", "ownerkey": 1,
                "sharelist": ["2"], "classlist": [], "tasklist": [["key": 10, "name": "A", "maximum": 10]],
                "studentlist": [],
                "resultlist": [
                    ["studentkey": "5", "taskkey": 10, "rawresult": "", "roundedresult": ""],
                    ["studentkey": 6, "taskkey": "10", "rawresult": "ABS", "roundedresult": "ABS"],
                ],
            ]
        )
        let transport = ScriptedTransport([loginOK, .json(body)])
        let sheet = try await scriptedClient(transport).getMarkbookAlt(key: 7)
        #expect(sheet.key == 7)
        #expect(sheet.year == "2024")
        #expect(sheet.shareList == [2])
        #expect(sheet.tasks.first?.decimalPlaces == 0)
        #expect(sheet.results == [6: [10: MarkbookResult(raw: "ABS", rounded: "ABS")]])
    }

    @Test("The Spec's createmarkbook payload decodes as a NewMarkbook and passes validation")
    func payloadFile() throws {
        let payload = try JSONDecoder().decode(
            NewMarkbook.self,
            from: Data(MarkbookSpecPayloads.createMarkbookPayload.utf8)
        )
        try payload.validate()
        #expect(payload.name == "12CHM Chemistry")
        #expect(payload.classes.map(\.name) == ["12CHM-1", "12CHM-2"])
        #expect(payload.students.count == 4)
        #expect(payload.students[2].preferredName == "Lena")
        #expect(payload.schoolName == "Sandbox Secondary College")
        // And back: the API's own shape, without classname (the client adds it from the class).
        let encoded = try JSONValue(parsing: try JSONEncoder().encode(payload))
        #expect(encoded["markbookname"] == "12CHM Chemistry")
        #expect(encoded["studentlist"]?[0]?["givename"] == "Linh")
        #expect(encoded["studentlist"]?[0]?["classname"] == nil)
    }

    @Test("A payload file with numbers as strings and missing optional keys still decodes")
    func lenientPayload() throws {
        let text = """
            {"markbookname": "X", "markbookyear": 2025, "ownerkey": "2001",
             "classlist": [{"key": "1", "name": "A"}],
             "studentlist": [{"key": 1, "studentid": 12345, "familyname": "F", "givename": "G", "classkey": 1}]}
            """
        let payload = try JSONDecoder().decode(NewMarkbook.self, from: Data(text.utf8))
        #expect(payload.year == "2025")
        #expect(payload.ownerKey == 2001)
        #expect(payload.students[0].studentID == "12345")
        #expect(payload.shareList.isEmpty)
        #expect(payload.schoolName == nil)
        try payload.validate()
    }

    @Test("BackupStatus reads every status")
    func backupStatus() {
        #expect(BackupStatus(status: "OKAY") == .okay)
        #expect(BackupStatus(status: "ERROR:pending") == .errorPending)
        #expect(BackupStatus(status: "ERROR:no backup") == .errorNoBackup)
        #expect(BackupStatus(status: "ERROR:quota") == .error("quota"))
        #expect(BackupStatus(status: "ERROR:quota").rawStatus == "ERROR:quota")
    }

    @Test("A student's sort name prefers the preferred name")
    func sortName() {
        let student = MarkbookStudent(
            key: 1,
            studentID: "s",
            familyName: "Chen",
            givenName: "William",
            preferredName: "Will",
            classKey: 1,
            className: "A"
        )
        #expect(student.sortName == "Chen, Will")
    }
}
