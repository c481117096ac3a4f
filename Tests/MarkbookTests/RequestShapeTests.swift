import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import Testing

/// One operation, what it must put on the wire, and an answer it accepts.
struct ShapeCase: Sendable, CustomTestStringConvertible {
    var action: MarkbookAction
    var query: [(String, String)]
    var answer: [String: JSONValue]
    var call: @Sendable (MarkbookClient) async throws -> Void

    var testDescription: String { action.rawValue }

    static let emptySheet: [String: JSONValue] = [
        "markbookkey": 1_000_001, "markbookname": "10MAT1 Mathematics", "markbookyear": "2024",
        "markbookcourse": "Year 10 Mathematics", "ownerkey": 2001, "sharelist": [], "classlist": [], "tasklist": [],
        "studentlist": [],
    ]
    static let emptyOutcomes: [String: JSONValue] = ["classlist": [], "outcomelist": [], "studentlist": []]

    /// A read of markbook 1000001, whose only parameter is its key.
    static func read(
        _ action: MarkbookAction,
        answer: [String: JSONValue],
        _ call: @escaping @Sendable (MarkbookClient) async throws -> Void
    ) -> ShapeCase {
        ShapeCase(action: action, query: [("key", "1000001")], answer: answer, call: call)
    }

    static let all: [ShapeCase] = [
        ShapeCase(action: .markbookList, query: [], answer: ["list": []]) { _ = try await $0.markbookList() },
        ShapeCase(action: .userList, query: [], answer: ["list": []]) { _ = try await $0.userList() },
        read(.getMarkbook, answer: emptySheet) { _ = try await $0.getMarkbook(key: 1_000_001) },
        read(.getMarkbookAlt, answer: emptySheet.merging(["resultlist": []]) { first, _ in first }) {
            _ = try await $0.getMarkbookAlt(key: 1_000_001)
        },
        read(.getOutcomes, answer: emptyOutcomes) { _ = try await $0.getOutcomes(key: 1_000_001) },
        read(.getOutcomesAlt, answer: emptyOutcomes.merging(["levellist": []]) { first, _ in first }) {
            _ = try await $0.getOutcomesAlt(key: 1_000_001)
        },
        ShapeCase(
            action: .putStudentResult,
            query: [
                ("key", "1000001"), ("studentkey", "5001"), ("sid", "100234"), ("taskkey", "4001"),
                ("taskname", "Algebra test"), ("result", "44.5"),
            ],
            answer: [:]
        ) {
            try await $0.putStudentResult(
                markbookKey: 1_000_001,
                studentKey: 5001,
                sid: "100234",
                taskKey: 4001,
                taskName: "Algebra test",
                result: "44.5"
            )
        },
        ShapeCase(
            action: .createStudent,
            query: [
                ("key", "1000001"), ("sid", "100399"), ("family", "O'Brien & Sons"), ("given", "Aanya"),
                ("preferred", ""), ("gender", "female"), ("classkey", "3002"),
            ],
            answer: ["studentkey": 5016]
        ) {
            let key = try await $0.createStudent(
                markbookKey: 1_000_001,
                sid: "100399",
                familyName: "O'Brien & Sons",
                givenName: "Aanya",
                preferredName: "",
                gender: .female,
                classKey: 3002
            )
            #expect(key == 5016)
        },
        ShapeCase(
            action: .updateStudent,
            query: [
                ("key", "1000001"), ("studentkey", "5004"), ("sid", "100277"), ("family", "Dimitriou"),
                ("given", "Sophia"), ("preferred", "Sophie"), ("gender", "other"),
            ],
            answer: [:]
        ) {
            try await $0.updateStudent(
                markbookKey: 1_000_001,
                studentKey: 5004,
                sid: "100277",
                familyName: "Dimitriou",
                givenName: "Sophia",
                preferredName: "Sophie",
                gender: .other
            )
        },
        ShapeCase(
            action: .updateStudentClass,
            query: [("key", "1000001"), ("studentkey", "5006"), ("sid", "100301"), ("classkey", "3001")],
            answer: [:]
        ) { try await $0.updateStudentClass(markbookKey: 1_000_001, studentKey: 5006, sid: "100301", classKey: 3001) },
        ShapeCase(
            action: .deleteStudent,
            query: [("key", "1000001"), ("studentkey", "5006"), ("sid", "100301")],
            answer: [:]
        ) { try await $0.deleteStudent(markbookKey: 1_000_001, studentKey: 5006, sid: "100301") },
        ShapeCase(
            action: .createClass,
            query: [("key", "1000001"), ("name", "10MAT1-C"), ("family", "Okafor"), ("given", "Ms Ada")],
            answer: ["classkey": 3005]
        ) {
            let key = try await $0.createClass(
                markbookKey: 1_000_001,
                name: "10MAT1-C",
                teacherFamilyName: "Okafor",
                teacherGivenName: "Ms Ada"
            )
            #expect(key == 3005)
        },
        ShapeCase(action: .scheduleBackup, query: [("matching", "10MAT")], answer: [:]) {
            try await $0.scheduleBackup(matching: "10MAT")
        },
        ShapeCase(action: .getBackupURL, query: [], answer: ["url": "https://example.com/b.zip"]) {
            let backup = try await $0.getBackupURL()
            #expect(backup.status == .okay)
            #expect(backup.url?.absoluteString == "https://example.com/b.zip")
        },
    ]
}

@Suite("Request shapes on the wire (ScriptedTransport)")
struct RequestShapeTests {
    @Test("The login is POST authenticate.lc with a form of apiuser and apipassword, nothing else")
    func login() async throws {
        let transport = ScriptedTransport([loginOK, .json(envelope("markbooklist", ["list": []]))])
        _ = try await scriptedClient(transport).markbookList()
        let login = try #require(transport.requests.first)
        #expect(login.request.method == .post)
        #expect(login.url.absoluteString == "https://smpcsonline.com.au/markbook/api/v1.5/authenticate.lc")
        #expect(login.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(login.queryItems.isEmpty)
        let form = formPairs(login.bodyText ?? "")
        #expect(form.map(\.name) == ["apiuser", "apipassword"])
        let rightValues = form.map(\.value) == [TestAccount.username, TestAccount.password]
        #expect(rightValues, "the form carries the account's user name and password")
    }

    @Test(
        "Every query action: GET {base}?action=…, exactly its parameters in order, then the session triple",
        arguments: ShapeCase.all
    )
    func queryAction(_ shape: ShapeCase) async throws {
        let transport = ScriptedTransport([loginOK, .json(envelope(shape.action.rawValue, shape.answer))])
        let client = try scriptedClient(transport)
        try await shape.call(client)
        #expect(transport.requests.count == 2)
        let sent = try #require(transport.requests.last)
        #expect(sent.request.method == .get)
        #expect(sent.body == nil)
        #expect(sent.url.path == "/markbook/api/v1.5")
        let items = sent.queryItems.map { ($0.name, $0.value ?? "") }
        #expect(items.map(\.0) == ["action"] + shape.action.parameters + ["sessiontoken", "sessionkey", "apikey"])
        #expect(Array(items.map(\.0).dropLast(3)) == ["action"] + shape.query.map(\.0))
        #expect(Array(items.map(\.1).dropLast(3)) == [shape.action.rawValue] + shape.query.map(\.1))
        let session = items.suffix(3).map(\.1)
        let sessionSent = session == scriptedSessionValues + [TestAccount.apiKey]
        #expect(sessionSent, "sessiontoken, sessionkey and apikey carry the session and the key")
        #expect(sent.options.isIdempotent == shape.action.isIdempotent, "the transport knows whether it may resend")
    }

    @Test("Spaces are %20 and reserved characters are escaped in the query")
    func percentEncoding() async throws {
        let shape = try #require(ShapeCase.all.first { $0.action == .createStudent })
        let transport = ScriptedTransport([loginOK, .json(envelope("createstudent", shape.answer))])
        try await shape.call(try scriptedClient(transport))
        let query = try #require(transport.requests.last?.url.query)
        #expect(query.contains("family=O%27Brien%20%26%20Sons"))
        #expect(query.hasPrefix("action=createstudent&key=1000001&sid=100399&"))
    }

    @Test("createmarkbook is POST post.lc with a form of apiaction, jsondata and the session triple")
    func createMarkbook() async throws {
        let transport = ScriptedTransport([
            loginOK,
            .json(
                envelope(
                    "createmarkbook",
                    [
                        "markbookkey": 1_000_004, "markbookname": "12CHM Chemistry", "classcount": 2,
                        "studentcount": 2, "sharecount": 1,
                    ]
                )
            ),
        ])
        var payload = Self.payload
        payload.schoolName = "Sandbox Secondary College"
        let created = try await scriptedClient(transport).createMarkbook(payload)
        #expect(
            created
                == CreatedMarkbook(
                    key: 1_000_004,
                    name: "12CHM Chemistry",
                    requestedName: "12CHM Chemistry",
                    classCount: 2,
                    studentCount: 2,
                    shareCount: 1
                )
        )
        #expect(transport.requests.count == 2)
        let post = try #require(transport.requests.last)
        #expect(post.request.method == .post)
        #expect(post.url.absoluteString == "https://smpcsonline.com.au/markbook/api/v1.5/post.lc")
        #expect(post.queryItems.isEmpty, "nothing in the query: the session goes in the form")
        #expect(post.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(post.options.isIdempotent == false)
        let form = formPairs(post.bodyText ?? "")
        #expect(form.map(\.name) == ["apiaction", "jsondata", "sessiontoken", "sessionkey", "apikey"])
        #expect(form.first?.value == "createmarkbook")
        let sessionSent = form.suffix(3).map(\.value) == scriptedSessionValues + [TestAccount.apiKey]
        #expect(sessionSent)
        let jsondata = try JSONValue(parsing: Data((form.first { $0.name == "jsondata" }?.value ?? "").utf8))
        #expect(jsondata["api"] == "https://smpcsonline.com.au/markbook/api/v1.5")
        #expect(jsondata["schoolname"] == "Sandbox Secondary College")
        #expect(jsondata["action"] == "createmarkbook")
        #expect(jsondata["markbookname"] == "12CHM Chemistry")
        #expect(jsondata["markbookyear"] == "2025")
        #expect(jsondata["ownerkey"] == 2003)
        #expect(jsondata["sharelist"] == [2001])
        #expect(
            jsondata["classlist"]
                == [["key": 1, "name": "12CHM-1", "teachername1": "Dr Mei", "teachername2": "Chen"]]
        )
        #expect(
            jsondata["studentlist"]?[1]
                == [
                    "key": 2, "studentid": "100624", "familyname": "Okoye", "givename": "Chidi",
                    "preferredname": "", "classkey": 1, "classname": "12CHM-1",
                ]
        )
    }

    @Test("Without a school name, createmarkbook learns it from the API first")
    func createMarkbookLearnsSchoolName() async throws {
        let transport = ScriptedTransport([
            loginOK,
            .json(envelope("userlist", ["list": []])),
            .json(envelope("createmarkbook", ["markbookkey": 1_000_004, "markbookname": "12CHM Chemistry"])),
        ])
        let created = try await scriptedClient(transport).createMarkbook(Self.payload)
        #expect(created.key == 1_000_004)
        #expect(created.classCount == 0, "missing counts read as zero: the markbook exists, so no error")
        #expect(transport.requests.map { $0.url.lastPathComponent } == ["authenticate.lc", "v1.5", "post.lc"])
        let form = formPairs(transport.requests.last?.bodyText ?? "")
        let jsondata = try JSONValue(parsing: Data((form.first { $0.name == "jsondata" }?.value ?? "").utf8))
        #expect(jsondata["schoolname"] == "Sandbox Secondary College")
    }

    static let payload = NewMarkbook(
        name: "12CHM Chemistry",
        year: "2025",
        course: "Year 12 Chemistry",
        ownerKey: 2003,
        shareList: [2001],
        classes: [NewMarkbook.Class(key: 1, name: "12CHM-1", teacherName1: "Dr Mei", teacherName2: "Chen")],
        students: [
            NewMarkbook.Student(key: 1, studentID: "100611", familyName: "Nguyen", givenName: "Linh", classKey: 1),
            NewMarkbook.Student(key: 2, studentID: "100624", familyName: "Okoye", givenName: "Chidi", classKey: 1),
        ]
    )
}

/// Decodes `a=1&b=x+y` into pairs, in order.
func formPairs(_ text: String) -> [(name: String, value: String)] {
    text.split(separator: "&").map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
        }
        return (parts[0], parts.count > 1 ? parts[1] : "")
    }
}
