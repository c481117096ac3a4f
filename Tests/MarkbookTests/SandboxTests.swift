import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import MarkbookSandbox
import Testing

@Suite("Every operation against the stateful sandbox over real HTTP")
struct SandboxTests {
    /// A plain HTTPCore client on the sandbox, and the answer to its login.
    @available(macOS 14, iOS 17, tvOS 17, *)
    private static func rawLogin(_ harness: SandboxHarness) async throws -> (client: Client, login: JSONValue) {
        let raw = try Client(configuration: ClientConfiguration(baseURL: harness.baseURL))
        let login = try await raw.send(
            Endpoint<JSONValue>(
                .post,
                "authenticate.lc",
                body: .form(["apiuser": TestAccount.username, "apipassword": TestAccount.password])
            )
        )
        return (raw, login)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("markbookList and userList: the seed")
    func lists() async throws {
        try await SandboxHarness.withClient { harness, client in
            let markbooks = try await client.markbookList()
            #expect(markbooks.map(\.key) == [1_000_001, 1_000_002, 1_000_003])
            #expect(
                markbooks.first
                    == MarkbookSummary(
                        key: 1_000_001,
                        name: "10MAT1 Mathematics",
                        owner: "Ms Priya Natarajan",
                        year: "2024",
                        course: "Year 10 Mathematics"
                    )
            )
            let users = try await client.userList()
            #expect(users.map(\.loginID) == ["pnatarajan", "treynolds", "mchen", "sandbox.admin"])
            #expect(harness.module.counters().logins == 1)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("getMarkbook and getMarkbookAlt: the same students × tasks grid")
    func sheets() async throws {
        try await SandboxHarness.withClient { harness, client in
            let sheet = try await client.getMarkbook(key: 1_000_001)
            #expect(sheet == (try await client.getMarkbookAlt(key: 1_000_001)))
            #expect(sheet.students.count == 8)
            #expect(sheet.tasks.map(\.name).first == "Algebra test")
            #expect(sheet.result(studentKey: 5003, taskKey: 4004)?.roundedValue == 92)
            #expect(sheet.result(studentKey: 5004, taskKey: 4003) == nil, "Sophie has no Statistics result")
            #expect(sheet.result(studentKey: 5002, taskKey: 4001)?.rounded == "38.0")
            #expect(sheet.results.values.map(\.count).reduce(0, +) == 37)
            let missing = await expectMarkbookError(.notFound, sessions: harness.sessions) {
                _ = try await client.getMarkbook(key: 42)
            }
            #expect(missing?.details.rawStatus == "ERROR:invalid markbook")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("getOutcomes and getOutcomesAlt: the same levels; a markbook without outcomes is empty")
    func outcomes() async throws {
        try await SandboxHarness.withClient { _, client in
            let outcomes = try await client.getOutcomes(key: 1_000_001)
            #expect(outcomes == (try await client.getOutcomesAlt(key: 1_000_001)))
            #expect(outcomes.outcomes.count == 4)
            #expect(outcomes.level(studentKey: 5003, outcomeKey: 6001)?.value == 5)
            #expect(outcomes.level(studentKey: 5006, outcomeKey: 6002) == nil)
            let physics = try await client.getOutcomesAlt(key: 1_000_002)
            #expect(physics.level(studentKey: 5010, outcomeKey: 6005)?.text == "A")
            #expect(physics.level(studentKey: 5010, outcomeKey: 6005)?.value == nil)
            #expect(try await client.getOutcomes(key: 1_000_003).outcomes.isEmpty)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("putStudentResult writes, rounds to the task's places, clears; a mismatched sid or task name writes nothing")
    func results() async throws {
        try await SandboxHarness.withClient { harness, client in
            let sheet = try await client.getMarkbook(key: 1_000_001)
            let olivia = try #require(sheet.student(key: 5001))
            let exam = try #require(sheet.task(key: 4004))
            try await client.putStudentResult(markbookKey: 1_000_001, student: olivia, task: exam, result: "84.5")
            let after = try await client.getMarkbookAlt(key: 1_000_001)
            #expect(after.result(studentKey: 5001, taskKey: 4004) == MarkbookResult(raw: "84.500000", rounded: "85"))
            try await client.putStudentResult(markbookKey: 1_000_001, student: olivia, task: exam, result: "")
            #expect(try await client.getMarkbook(key: 1_000_001).result(studentKey: 5001, taskKey: 4004) == nil)

            let wrongStudent = await expectMarkbookError(.notFound, sessions: harness.sessions) {
                try await client.putStudentResult(
                    markbookKey: 1_000_001,
                    studentKey: 5001,
                    sid: "100251",
                    taskKey: 4001,
                    taskName: "Algebra test",
                    result: "1"
                )
            }
            #expect(wrongStudent?.details.rawStatus == "ERROR:invalid student")
            await expectMarkbookError(.notFound, sessions: harness.sessions) {
                try await client.putStudentResult(
                    markbookKey: 1_000_001,
                    studentKey: 5001,
                    sid: "100234",
                    taskKey: 4001,
                    taskName: "Homework",
                    result: "1"
                )
            }
            #expect(harness.module.result(markbookKey: 1_000_001, studentKey: 5001, taskKey: 4001) == "42.5")
            #expect(harness.module.counters().appliedWritesByAction["putstudentresult"] == 2)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Students: create, update (every name), delete (soft: results kept), restore by moving")
    func students() async throws {
        try await SandboxHarness.withClient { harness, client in
            let key = try await client.createAanyaPatel()
            #expect(key == 5016)
            var sheet = try await client.getMarkbook(key: 1_000_001)
            #expect(sheet.student(key: key)?.className == "10MAT1-B")
            #expect(sheet.result(studentKey: key, taskKey: 4001) == nil)

            await expectMarkbookError(.validation, sessions: harness.sessions) {
                _ = try await client.createAanyaPatel()
            }

            try await client.updateStudent(
                markbookKey: 1_000_001,
                studentKey: 5004,
                sid: "100277",
                familyName: "Dimitriou-Lee",
                givenName: "Sophia",
                preferredName: "",
                gender: .female
            )
            sheet = try await client.getMarkbook(key: 1_000_001)
            #expect(sheet.student(key: 5004)?.sortName == "Dimitriou-Lee, Sophia")

            try await client.deleteStudent(markbookKey: 1_000_001, studentKey: 5006, sid: "100301")
            try await client.deleteStudent(markbookKey: 1_000_001, studentKey: 5006, sid: "100301")
            sheet = try await client.getMarkbook(key: 1_000_001)
            #expect(sheet.student(key: 5006) == nil)
            #expect(try await client.getOutcomes(key: 1_000_001).students.contains { $0.key == 5006 } == false)
            #expect(harness.module.student(markbookKey: 1_000_001, studentKey: 5006)?.isDeleted == true)
            await expectMarkbookError(.notFound, sessions: harness.sessions) {
                try await client.updateStudent(
                    markbookKey: 1_000_001,
                    studentKey: 5006,
                    sid: "100301",
                    familyName: "F",
                    givenName: "A",
                    preferredName: "",
                    gender: .female
                )
            }

            try await client.updateStudentClass(markbookKey: 1_000_001, studentKey: 5006, sid: "100301", classKey: 3001)
            sheet = try await client.getMarkbook(key: 1_000_001)
            #expect(sheet.student(key: 5006)?.className == "10MAT1-A")
            #expect(sheet.result(studentKey: 5006, taskKey: 4004)?.roundedValue == 58, "results survive a soft delete")

            let badClass = await expectMarkbookError(sessions: harness.sessions) {
                try await client.updateStudentClass(
                    markbookKey: 1_000_001,
                    studentKey: 5006,
                    sid: "100301",
                    classKey: 3003
                )
            }
            #expect(badClass?.code == .notFound, "class 3003 belongs to another markbook")
            #expect(badClass?.details.rawStatus == "ERROR:invalid class")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("createClass: teacher names as given/family; names unique (case and spaces ignored)")
    func classes() async throws {
        try await SandboxHarness.withClient { harness, client in
            let key = try await client.createClass(
                markbookKey: 1_000_001,
                name: "10MAT1-C",
                teacherFamilyName: "Okafor",
                teacherGivenName: "Ms Ada"
            )
            let created = try #require(try await client.getMarkbook(key: 1_000_001).markbookClass(key: key))
            #expect(
                created == MarkbookClass(key: key, name: "10MAT1-C", teacherName1: "Ms Ada", teacherName2: "Okafor")
            )
            let duplicate = await expectMarkbookError(.validation, sessions: harness.sessions) {
                _ = try await client.createClass(
                    markbookKey: 1_000_001,
                    name: " 10mat1-c ",
                    teacherFamilyName: "",
                    teacherGivenName: ""
                )
            }
            #expect(duplicate?.details.rawStatus == "ERROR:duplicate class name")
            #expect(harness.module.classNames(markbookKey: 1_000_001).count == 3)
            let other = try await client.createClass(
                markbookKey: 1_000_002,
                name: "10MAT1-C",
                teacherFamilyName: "",
                teacherGivenName: ""
            )
            #expect(other == key + 1, "unique within a markbook, not across markbooks")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Backups: none, pending today, ready at 1 AM tomorrow, downloadable, gone an hour after first returned")
    func backups() async throws {
        // Fri 14 Jun 2024 12:58:32 in Sydney.
        try await SandboxHarness.withClient { harness, client in
            #expect(try await client.getBackupURL().status == .errorNoBackup)
            try await client.scheduleBackup(matching: "10MAT")
            #expect(try await client.getBackupURL() == BackupURL(status: .errorPending, url: nil))
            harness.clock.advance(by: .seconds(11 * 3600))  // 23:58, still the same day
            #expect(try await client.getBackupURL().status == .errorPending)
            harness.clock.advance(by: .seconds(3600))  // 00:58 Saturday: built at 1 AM
            #expect(try await client.getBackupURL().status == .errorPending)
            harness.clock.advance(by: .seconds(120))
            let ready = try await client.getBackupURL()
            #expect(ready.isReady)
            let url = try #require(ready.url)
            #expect(url.lastPathComponent == "markbook-backup-20240614T150000Z.zip", "the zip's timestamp is UTC")
            let zip = try await Client(configuration: ClientConfiguration(baseURL: harness.sandbox.baseURL))
                .send(Endpoint<Data>(.get, url.absoluteString))
            #expect(zip.prefix(4) == Data([0x50, 0x4B, 0x03, 0x04]), "a zip's first local file header")

            harness.clock.advance(by: .seconds(59 * 60))
            #expect(try await client.getBackupURL().isReady)
            harness.clock.advance(by: .seconds(2 * 60))
            #expect(try await client.getBackupURL().status == .errorNoBackup, "deleted an hour after first returned")

            // One per day: a second schedule replaces the first.
            try await client.scheduleBackup(matching: "PHY")
            try await client.scheduleBackup(matching: "SCI")
            #expect(try await client.getBackupURL().status == .errorPending)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("createMarkbook: a whole markbook; a taken name gets -1, then -2; an unknown owner creates nothing")
    func createMarkbook() async throws {
        try await SandboxHarness.withClient { harness, client in
            let payload = try JSONDecoder().decode(
                NewMarkbook.self,
                from: Data(MarkbookSpecPayloads.createMarkbookPayload.utf8)
            )
            let created = try await client.createMarkbook(payload)
            #expect(created.name == "12CHM Chemistry")
            #expect(!created.wasRenamed)
            #expect([created.classCount, created.studentCount, created.shareCount] == [Int]([2, 4, 1]))
            let sheet = try await client.getMarkbook(key: created.key)
            #expect(sheet.classes.map(\.name) == ["12CHM-1", "12CHM-2"])
            #expect(sheet.students.map(\.className) == ["12CHM-1", "12CHM-1", "12CHM-2", "12CHM-2"])
            #expect(sheet.ownerKey == 2003)

            let second = try await client.createMarkbook(payload)
            let third = try await client.createMarkbook(payload)
            #expect(second.name == "12CHM Chemistry-1")
            #expect(second.wasRenamed)
            #expect(third.name == "12CHM Chemistry-2")
            #expect(Set([created.key, second.key, third.key]).count == 3)

            var orphan = payload
            orphan.ownerKey = 9999
            let error = await expectMarkbookError(.notFound, sessions: harness.sessions) {
                _ = try await client.createMarkbook(orphan)
            }
            #expect(error?.details.rawStatus == "ERROR:invalid user")
            #expect(harness.module.markbookNames().count == 6)
            #expect(harness.module.counters().appliedWritesByAction["createmarkbook"] == 3)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Names with accents, apostrophes and ampersands survive the round trip")
    func encodingRoundTrip() async throws {
        try await SandboxHarness.withClient { harness, client in
            let key = try await client.createStudent(
                markbookKey: 1_000_002,
                sid: "X-1&2=3",
                familyName: "O'Brien & Sørensen",
                givenName: "Zoë",
                preferredName: "Zo + e",
                gender: .other,
                classKey: 3003
            )
            let student = try #require(try await client.getMarkbook(key: 1_000_002).student(key: key))
            #expect(student.familyName == "O'Brien & Sørensen")
            #expect(student.givenName == "Zoë")
            #expect(student.preferredName == "Zo + e")
            #expect(student.studentID == "X-1&2=3")
            #expect(harness.module.student(markbookKey: 1_000_002, studentKey: key)?.gender == "other")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "createmarkbook: a payload without the members the reference lists is refused as invalid jsondata",
        arguments: [
            "schoolname", "api", "action", "markbookyear", "markbookcourse", "sharelist", "class teachername1",
            "class teachername2", "student key", "student classname", "student preferredname",
        ]
    )
    func incompletePayload(missing: String) async throws {
        try await SandboxHarness.run { harness in
            let (raw, login) = try await Self.rawLogin(harness)
            guard
                case .object(var payload) = try JSONValue(
                    parsing: Data(MarkbookSpecPayloads.createMarkbookPayload.utf8)
                ),
                case .array(var students)? = payload["studentlist"], case .object(var first)? = students.first,
                case .array(var classes)? = payload["classlist"], case .object(var firstClass)? = classes.first
            else { throw APIError.usage("The Spec's payload is not an object with classes and students.") }
            switch missing {
            case _ where missing.hasPrefix("student "):
                first[String(missing.dropFirst("student ".count))] = nil
                students[0] = .object(first)
                payload["studentlist"] = .array(students)
            case _ where missing.hasPrefix("class "):
                firstClass[String(missing.dropFirst("class ".count))] = nil
                classes[0] = .object(firstClass)
                payload["classlist"] = .array(classes)
            case "action": payload["action"] = "createclass"
            default: payload[missing] = nil
            }
            let answer = try await raw.send(
                Endpoint<JSONValue>(
                    .post,
                    "post.lc",
                    body: .form([
                        "sessiontoken": login["sessiontoken"]?.stringValue ?? "",
                        "sessionkey": login["sessionkey"].map { "\($0.intValue ?? 0)" } ?? "",
                        "apikey": TestAccount.apiKey, "apiaction": "createmarkbook",
                        "jsondata": String(decoding: JSONValue.object(payload).encoded(), as: UTF8.self),
                    ])
                )
            )
            #expect(answer["status"] == "ERROR:invalid jsondata")
            #expect(harness.module.markbookNames().count == 3, "nothing created")
        }
    }

    @Test("The sandbox answers the API's envelope on every call and 405 for what it does not serve")
    func envelopeAndMethods() async throws {
        try await SandboxHarness.run { harness in
            let (raw, login) = try await Self.rawLogin(harness)
            #expect(login["status"] == "OKAY")
            #expect(login["source"] == "Markbook Online")
            #expect(login["date"] == "Fri, 14 Jun 2024 12:58:32 +1000")
            #expect(login["seconds"] == 1_718_333_912)
            #expect(login["api"] == .string(harness.baseURL.absoluteString))
            #expect(login["sessionkey"]?.intValue != nil)
            let noSession = try await raw.send(Endpoint<JSONValue>(.get, "", query: ["action": "markbooklist"]))
            #expect(noSession["status"] == "ERROR:invalid credentials")
            #expect(noSession["action"] == "markbooklist")
            // `getbackupurl` carries its `url` on every answer, a refused session's too.
            let backup = try await raw.send(Endpoint<JSONValue>(.get, "", query: ["action": "getbackupurl"]))
            #expect(backup["status"] == "ERROR:invalid credentials")
            #expect(backup["url"] == "")
            let wrongMethod = await expectMarkbookError {
                _ = try await raw.send(Endpoint<Data>(.delete, "authenticate.lc"))
            }
            #expect(wrongMethod?.httpStatus == 404 || wrongMethod?.httpStatus == 405)
        }
    }
}
