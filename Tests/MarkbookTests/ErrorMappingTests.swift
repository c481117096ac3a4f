import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import Testing

@Suite("Errors: ERROR: statuses, HTTP failures, malformed answers, bad input")
struct ErrorMappingTests {
    static let statuses: [(String, APIError.Code)] = [
        ("ERROR:invalid credentials", .authRequired),
        ("ERROR:session expired", .authRequired),
        ("ERROR:invalid student", .notFound),
        ("ERROR:invalid markbook", .notFound),
        ("ERROR:invalid class", .notFound),
        ("ERROR:invalid task", .notFound),
        ("ERROR:invalid user", .notFound),
        ("ERROR:unknown student", .notFound),
        ("ERROR:no such markbook", .notFound),
        ("ERROR:student not found", .notFound),
        ("ERROR:invalid studentkey", .notFound),
        ("ERROR:invalid gender", .validation),
        ("ERROR:invalid matching", .validation),
        ("ERROR:missing sid", .validation),
        ("ERROR:duplicate class name", .validation),
        ("ERROR:class name already in use", .validation),
        ("ERROR:name must be unique", .validation),
        ("ERROR:invalid action", .apiError),
        ("ERROR:pending", .apiError),
        ("ERROR:database offline", .apiError),
        ("ERROR:", .apiError),
    ]

    @Test("The status table", arguments: statuses)
    func table(_ status: String, _ code: APIError.Code) {
        #expect(MarkbookStatus.errorCode(for: status) == code)
    }

    @Test("OKAY is no error")
    func okay() {
        #expect(MarkbookStatus.errorCode(for: "OKAY") == nil)
    }

    @Test("An ERROR: status from a call becomes the structured error with the raw status", arguments: statuses)
    func fromCall(_ status: String, _ code: APIError.Code) async throws {
        // A re-login is answered once for session statuses; the replay gets the same status.
        let answer = ScriptedTransport.Step.json(envelope("getmarkbook", status: status))
        let transport = ScriptedTransport([loginOK, answer, loginOK, answer])
        let client = try scriptedClient(transport)
        let error = try #require(await expectMarkbookError(code) { _ = try await client.getMarkbook(key: 1_000_001) })
        #expect(error.details.rawStatus == status)
        #expect(error.httpStatus == nil, "every Markbook answer is a 200; the status is what failed")
        #expect(error.message.contains(status))
        #expect(!error.isRetryable)
        #expect(transport.requests.count == (code == .authRequired ? 4 : 2))
    }

    @Test(
        "HTTP failures map as HTTPCore maps them",
        arguments: [
            (404, APIError.Code.notFound), (401, .authRequired), (403, .forbidden), (500, .apiError),
            (507, .limitExceeded), (400, .validation),
        ]
    )
    func httpFailures(_ status: Int, _ code: APIError.Code) async throws {
        let transport = ScriptedTransport([loginOK, .status(status), loginOK, .status(status)])
        let error = try #require(
            await expectMarkbookError(code) {
                _ = try await scriptedClient(transport).deleteStudent(markbookKey: 1, studentKey: 2, sid: "3")
            }
        )
        #expect(error.httpStatus == status)
    }

    @Test(
        "A create answered by a proxy's 520 or 524, or with an unreadable 200, is ambiguous and sent once",
        arguments: [
            ScriptedTransport.Step.status(520), .status(524),
            .status(200, body: #"{"source":"Markbook Online","status":"OKAY","classkey":30"#),
        ]
    )
    func createWithoutTheAPIsAnswer(_ answer: ScriptedTransport.Step) async throws {
        let transport = ScriptedTransport([loginOK, answer])
        let error = try #require(
            await expectMarkbookError(.ambiguous) {
                _ = try await scriptedClient(transport)
                    .createClass(markbookKey: 1_000_001, name: "X", teacherFamilyName: "", teacherGivenName: "")
            }
        )
        #expect(error.exitCode == 8)
        #expect(!error.isRetryable)
        #expect(error.message.hasPrefix("The server may or may not have applied this request"))
        #expect(transport.requests.count == 2, "the create is never sent again")
    }

    @Test("A create refused by a gateway with a 4xx, or redirected, stays a plain failure: it was not applied")
    func createRefusedInFront() async throws {
        for (answer, code) in [
            (ScriptedTransport.Step.status(403), APIError.Code.forbidden), (.status(429), .rateLimit),
        ] {
            let transport = ScriptedTransport([loginOK, answer])
            await expectMarkbookError(code) {
                _ = try await scriptedClient(transport) { $0.retry.maxAttempts = 1 }
                    .createClass(markbookKey: 1_000_001, name: "X", teacherFamilyName: "", teacherGivenName: "")
            }
        }
    }

    @Test("A redirect to another host is not followed: the session and API key in the form stay here")
    func crossOriginRedirect() async throws {
        let elsewhere = "https://collector.example.net/steal"
        let transport = ScriptedTransport([
            loginOK, .status(307, headers: [.location: elsewhere]),
        ])
        // A payload naming its school, so the create is the first call after the login.
        var payload = RequestShapeTests.payload
        payload.schoolName = "Sandbox Secondary College"
        let error = try #require(
            await expectMarkbookError(.apiError, sessions: scriptedSessionValues) {
                _ = try await scriptedClient(transport).createMarkbook(payload)
            }
        )
        #expect(error.httpStatus == 307)
        #expect(transport.requests.count == 2)
        let redirected = try #require(transport.requests.last)
        #expect(redirected.request.method == .post)
        #expect(redirected.bodyText?.contains("sessiontoken=") == true)
        #expect(!transport.requests.contains { $0.url.host == "collector.example.net" })
    }

    @Test("A login answered with HTTP 500 is api_error and does not block later calls")
    func loginServerError() async throws {
        let transport = ScriptedTransport([.status(500), loginOK, .json(envelope("userlist", ["list": []]))])
        let client = try scriptedClient(transport)
        let error = try #require(await expectMarkbookError(.apiError) { _ = try await client.userList() })
        #expect(error.message.hasPrefix("The Markbook login failed"))
        _ = try await client.userList()
    }

    @Test("A secret echoed in a status is scrubbed from the message and raw status")
    func scrubbed() async throws {
        // (No "session" or "credential" in it: those would trigger a re-login first.)
        let echo = "ERROR:unexpected value \(TestAccount.apiKey) near st-0a1b2c3d4e5f"
        let transport = ScriptedTransport([loginOK, .json(envelope("userlist", status: echo))])
        let error = try #require(
            await expectMarkbookError(.apiError, sessions: scriptedSessionValues) {
                _ = try await scriptedClient(transport).userList()
            }
        )
        #expect(error.details.rawStatus == "ERROR:unexpected value [REDACTED] near [REDACTED]")
    }

    @Test("A body that is not JSON, or a status missing, is api_error")
    func notJSON() async throws {
        for body in ["<html>maintenance</html>", #"{"action":"userlist"}"#] {
            let transport = ScriptedTransport([loginOK, .status(200, body: body)])
            await expectMarkbookError(.apiError) { _ = try await scriptedClient(transport).userList() }
        }
    }

    @Test("A malformed answer names the key path that failed")
    func malformed() async throws {
        let bad = envelope("markbooklist", ["list": [["key": "k1", "name": "x"]]])
        let transport = ScriptedTransport([loginOK, .json(bad)])
        let error = try #require(
            await expectMarkbookError(.apiError) { _ = try await scriptedClient(transport).markbookList() }
        )
        #expect(error.message.contains("`list[0].key` is not a whole number"))
    }

    @Test("Results that do not line up with the tasks are refused, never guessed")
    func misalignedResults() async throws {
        let sheet = envelope(
            "getmarkbook",
            [
                "markbookkey": 1, "markbookname": "M", "markbookyear": "2024", "markbookcourse": "C", "ownerkey": 1,
                "sharelist": [], "classlist": [],
                "tasklist": [
                    ["key": 10, "name": "A", "maximum": 10, "decimalplaces": 0],
                    ["key": 11, "name": "B", "maximum": 10, "decimalplaces": 0],
                ],
                "studentlist": [
                    [
                        "key": 5, "studentid": "s", "familyname": "F", "givename": "G", "preferredname": "",
                        "classkey": 1, "classname": "c", "rawresults": ["7.000000"], "roundedresults": ["7"],
                    ]
                ],
            ]
        )
        let transport = ScriptedTransport([loginOK, .json(sheet)])
        let error = try #require(
            await expectMarkbookError(.apiError) { _ = try await scriptedClient(transport).getMarkbook(key: 1) }
        )
        #expect(error.message.contains("studentlist[0].rawresults"))
        #expect(error.message.contains("one result per task (2 tasks, 1 raw and 1 rounded results)"))
    }

    @Test("A create that succeeded without a readable key says not to repeat it")
    func createWithoutKey() async throws {
        let transport = ScriptedTransport([loginOK, .json(envelope("createclass"))])
        let error = try #require(
            await expectMarkbookError(.apiError) {
                _ = try await scriptedClient(transport).createClass(
                    markbookKey: 1,
                    name: "X",
                    teacherFamilyName: "",
                    teacherGivenName: ""
                )
            }
        )
        #expect(error.details.rawStatus == "OKAY")
        #expect(error.hint?.hasPrefix("Do not repeat the call") == true)
    }

    @Test("getbackupurl reads its statuses as BackupStatus; a rejected session still throws")
    func backupStatuses() async throws {
        for (status, expected) in [
            ("ERROR:pending", BackupStatus.errorPending), ("ERROR:no backup", .errorNoBackup),
            ("ERROR:disk full", .error("disk full")),
        ] {
            let transport = ScriptedTransport([loginOK, .json(envelope("getbackupurl", status: status, ["url": ""]))])
            let backup = try await scriptedClient(transport).getBackupURL()
            #expect(backup == BackupURL(status: expected, url: nil))
            #expect(!backup.isReady)
            #expect(expected.rawStatus == status)
        }
        let invalid = ScriptedTransport.Step.json(envelope("getbackupurl", status: "ERROR:invalid credentials"))
        let transport = ScriptedTransport([loginOK, invalid, loginOK, invalid])
        await expectMarkbookError(.authRequired) { _ = try await scriptedClient(transport).getBackupURL() }
    }

    // MARK: Input checked before any request

    @Test(
        "scheduleBackup with fewer than 2 characters is usage, with no request at all",
        arguments: ["", "1", " x ", "  "]
    )
    func shortMatching(_ matching: String) async throws {
        let transport = ScriptedTransport([loginOK])
        let error = try #require(
            await expectMarkbookError(.usage) { try await scriptedClient(transport).scheduleBackup(matching: matching) }
        )
        #expect(error.exitCode == 64)
        #expect(transport.requests.isEmpty)
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var call: @Sendable (MarkbookClient) async throws -> Void
    }

    static let badInputs: [BadInput] = [
        BadInput(testDescription: "key 0") { _ = try await $0.getMarkbook(key: 0) },
        BadInput(testDescription: "negative student") {
            try await $0.deleteStudent(markbookKey: 1, studentKey: -5, sid: "1")
        },
        BadInput(testDescription: "empty sid") {
            try await $0.putStudentResult(
                markbookKey: 1,
                studentKey: 2,
                sid: " ",
                taskKey: 3,
                taskName: "T",
                result: "1"
            )
        },
        BadInput(testDescription: "empty task name") {
            try await $0.putStudentResult(
                markbookKey: 1,
                studentKey: 2,
                sid: "s",
                taskKey: 3,
                taskName: "",
                result: "1"
            )
        },
        BadInput(testDescription: "line break in a result") {
            try await $0.putStudentResult(
                markbookKey: 1,
                studentKey: 2,
                sid: "s",
                taskKey: 3,
                taskName: "T",
                result: "4\n5"
            )
        },
        BadInput(testDescription: "line separator in a given name") {
            _ = try await $0.createStudent(
                markbookKey: 1,
                sid: "s",
                familyName: "F",
                givenName: "Ali\u{2028}Reza",
                preferredName: "",
                gender: .male,
                classKey: 1
            )
        },
        BadInput(testDescription: "empty family name") {
            _ = try await $0.createStudent(
                markbookKey: 1,
                sid: "s",
                familyName: "",
                givenName: "G",
                preferredName: "",
                gender: .male,
                classKey: 1
            )
        },
        BadInput(testDescription: "empty class name") {
            _ = try await $0.createClass(markbookKey: 1, name: "", teacherFamilyName: "", teacherGivenName: "")
        },
        BadInput(testDescription: "payload with a student in a missing class") {
            var payload = RequestShapeTests.payload
            payload.students[0].classKey = 9
            _ = try await $0.createMarkbook(payload)
        },
        BadInput(testDescription: "payload with two classes of one name") {
            var payload = RequestShapeTests.payload
            payload.classes.append(NewMarkbook.Class(key: 2, name: "12chm-1 "))
            _ = try await $0.createMarkbook(payload)
        },
        BadInput(testDescription: "payload with a repeated student id") {
            var payload = RequestShapeTests.payload
            payload.students[1].studentID = payload.students[0].studentID
            _ = try await $0.createMarkbook(payload)
        },
    ]

    @Test("Bad input is usage before any request", arguments: badInputs)
    func badInput(_ input: BadInput) async throws {
        let transport = ScriptedTransport([loginOK])
        await expectMarkbookError(.usage) { try await input.call(try scriptedClient(transport)) }
        #expect(transport.requests.isEmpty)
    }

    @Test("Names with invisible format characters (ZWNJ, soft hyphen) are sent as they are, not refused")
    func formatCharactersInNames() async throws {
        let transport = ScriptedTransport([loginOK])
        let client = try scriptedClient(transport)
        _ = try? await client.createStudent(
            markbookKey: 1,
            sid: "s1",
            familyName: "Taylor\u{00AD}son",
            givenName: "Ali\u{200C}Reza",
            preferredName: "",
            gender: .male,
            classKey: 1
        )
        let sent = transport.requests.map(\.url.absoluteString).joined(separator: "\n")
        #expect(sent.contains("createstudent"), "\(sent)")
        #expect(sent.contains("Ali%E2%80%8CReza") || sent.contains("Ali\u{200C}Reza"), "\(sent)")
    }

    @Test("Empty credentials: the plain init defers usage to the first call; the throwing init throws")
    func emptyCredentials() async throws {
        let client = MarkbookClient(apiKey: "", username: "u", password: "")
        let error = try #require(await expectMarkbookError(.usage) { _ = try await client.markbookList() })
        #expect(error.message.contains("apiKey, password"))
        await expectMarkbookError(.usage) {
            _ = try MarkbookClient(apiKey: "k", username: " ", password: "p", baseURL: exampleBaseURL)
        }
        await expectMarkbookError(.usage) {
            _ = try MarkbookClient(
                apiKey: "k",
                username: "u",
                password: "p",
                baseURL: URL(string: "http://markbook.example.com") ?? exampleBaseURL
            )
        }
    }
}
