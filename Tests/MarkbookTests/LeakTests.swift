import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import MarkbookSandbox
import Testing

/// The API key, the password and the session values must never show: not in errors, hook
/// events, descriptions or dumps. Every test's errors pass through `expectMarkbookError`, which checks them;
/// this suite drives every operation and every kind of failure on purpose and scans all of it.
@Suite("Secrets never show")
struct LeakTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Every operation and failure over real HTTP: errors, hook events, descriptions and dumps are clean")
    func sweep() async throws {
        try await SandboxHarness.run { harness in
            let recorder = EventRecorder()
            let client = try harness.client(hooks: recorder)
            var shown: [String] = [Leaks.render(client)]
            func attempt(_ body: () async throws -> Void) async {
                do { try await body() } catch { shown.append(Leaks.render(error)) }
            }
            // A second call fails: class names are unique.
            func createClassZ() async throws {
                _ = try await client.createClass(
                    markbookKey: 1_000_001,
                    name: "Z",
                    teacherFamilyName: "",
                    teacherGivenName: ""
                )
            }
            func createStudent(sid: String) async throws {
                _ = try await client.createStudent(
                    markbookKey: 1_000_001,
                    sid: sid,
                    familyName: "F",
                    givenName: "G",
                    preferredName: "",
                    gender: .male,
                    classKey: 3001
                )
            }
            await attempt { shown.append(Leaks.render(try await client.markbookList())) }
            await attempt { shown.append(Leaks.render(try await client.userList())) }
            await attempt { shown.append(Leaks.render(try await client.getMarkbook(key: 1_000_001))) }
            await attempt { shown.append(Leaks.render(try await client.getMarkbookAlt(key: 1_000_001))) }
            await attempt { shown.append(Leaks.render(try await client.getOutcomes(key: 1_000_001))) }
            await attempt { shown.append(Leaks.render(try await client.getOutcomesAlt(key: 1_000_001))) }
            await attempt { try await client.putOliviaAlgebraResult("45") }
            await attempt { try await createStudent(sid: "1") }
            await attempt {
                try await client.updateStudent(
                    markbookKey: 1_000_001,
                    studentKey: 5001,
                    sid: "100234",
                    familyName: "Adams",
                    givenName: "Olivia",
                    preferredName: "Liv",
                    gender: .female
                )
            }
            await attempt { try await client.deleteStudent(markbookKey: 1_000_001, studentKey: 5002, sid: "100251") }
            await attempt {
                try await client.updateStudentClass(
                    markbookKey: 1_000_001,
                    studentKey: 5002,
                    sid: "100251",
                    classKey: 3002
                )
            }
            await attempt { try await createClassZ() }
            await attempt { try await client.scheduleBackup(matching: "10MAT") }
            await attempt { shown.append(Leaks.render(try await client.getBackupURL())) }
            await attempt {
                let payload = try JSONDecoder().decode(
                    NewMarkbook.self,
                    from: Data(MarkbookSpecPayloads.createMarkbookPayload.utf8)
                )
                shown.append(Leaks.render(try await client.createMarkbook(payload)))
            }
            // Failures of every kind.
            await attempt { _ = try await client.getMarkbook(key: 9) }
            await attempt { try await client.scheduleBackup(matching: "x") }
            await attempt { try await createClassZ() }
            harness.module.expireSessions()
            await attempt { _ = try await client.userList() }
            harness.clock.advance(by: .seconds(19 * 60))
            await attempt { _ = try await client.userList() }
            harness.sandbox.setFaults(FaultInjection(sequence: [.connection(.dropResponse)]))
            await attempt { try await createStudent(sid: "2") }
            harness.sandbox.setFaults(FaultInjection(sequence: [.serviceUnavailable, .connection(.resetConnection)]))
            await attempt { _ = try await client.markbookList() }
            let wrong = try harness.client(hooks: recorder, password: "wrong-password-\(TestAccount.password)")
            await attempt { _ = try await wrong.markbookList() }
            await attempt { _ = try await wrong.markbookList() }

            let sessions = harness.sessions
            #expect(sessions.count >= 6, "several sessions were opened, renewed and replaced")
            #expect(recorder.authEvents.count >= 4)
            #expect(recorder.retries >= 1)
            Leaks.expectNone(in: shown.joined(separator: "\n"), sessions: sessions)
            Leaks.expectNone(in: recorder.transcript, sessions: sessions)
            #expect(recorder.transcript.contains("sessiontoken=[REDACTED]&sessionkey=[REDACTED]&apikey=[REDACTED]"))
        }
    }

    @Test("A gateway's error that quotes the request back shows no key or session value")
    func quotedRequest() async throws {
        let quoted = "failed GET /?action=markbooklist&sessiontoken=st-0a1b2c3d4e5f&sessionkey=918273645"
        let body: JSONValue = [
            "error": .string(quoted + "&apikey=\(TestAccount.apiKey)"), "error_description": "check 918273645",
        ]
        let client = try scriptedClient(ScriptedTransport([loginOK, .json(body, status: 500)])) { $0.retry = .none }
        let error = try #require(
            await expectMarkbookError(.apiError, sessions: scriptedSessionValues) {
                _ = try await client.markbookList()
            }
        )
        #expect(
            error.message
                == "failed GET /?action=markbooklist&sessiontoken=[REDACTED]&sessionkey=[REDACTED]&apikey=[REDACTED]"
        )
        #expect(error.hint == "check [REDACTED]")
        #expect(error.details.payload == nil)
        #expect(error.httpStatus == 500)
    }

    @Test("A session token an ERROR: status quotes back percent-encoded is scrubbed too")
    func encodedSessionToken() async throws {
        let token = "st+Zm9v/YmFy=="
        let login = ScriptedTransport.Step.json(
            envelope("authenticate", ["sessiontoken": .string(token), "sessionkey": 918_273_645])
        )
        let quoted = "ERROR:bad request ?action=markbooklist&token=st%2BZm9v%2FYmFy%3D%3D"
        let transport = ScriptedTransport([login, .json(envelope("markbooklist", status: quoted))])
        let client = try scriptedClient(transport) { $0.retry = .none }
        let error = try #require(await caughtAPIError { _ = try await client.markbookList() })
        let shown = "\(error) \(String(reflecting: error)) \(error.hint ?? "")"
        #expect(shown.contains("token=[REDACTED]"))
        #expect(!shown.contains("Zm9v"))
    }

    /// A client signing in as `admin` with the password `pw-Secr3t!`, without retries.
    static func adminClient(_ transport: ScriptedTransport) throws -> MarkbookClient {
        try MarkbookClient(
            apiKey: TestAccount.apiKey,
            username: "admin",
            password: "pw-Secr3t!",
            configuration: ClientConfiguration(baseURL: exampleBaseURL, retry: .none),
            transport: transport
        )
    }

    @Test("A password a failed login quotes back form-encoded is scrubbed too")
    func formEncodedPassword() async throws {
        let transport = ScriptedTransport([
            .json(["error": "server got apiuser=admin&apipassword=pw-Secr3t%21"], status: 500)
        ])
        let client = try Self.adminClient(transport)
        let error = await caughtAPIError { _ = try await client.markbookList() }
        #expect(error?.message.contains("apipassword=[REDACTED]") == true)
        #expect(error?.message.contains("Secr3t") == false)
    }

    @Test(
        "A failed login that echoes the password in error_description or as a field shows it nowhere in the error",
        arguments: [
            #"{"error": "x", "error_description": "got apipassword=pw-Secr3t!"}"#,
            #"{"apipassword": "pw-Secr3t!"}"#,
        ]
    )
    func loginEchoesPassword(body: String) async throws {
        let transport = ScriptedTransport([
            .respond(status: 500, headers: [.contentType: "application/json"], body: Data(body.utf8))
        ])
        let client = try Self.adminClient(transport)
        let error = try #require(await caughtAPIError { _ = try await client.markbookList() })
        #expect(error.message.hasPrefix("The Markbook login failed: "))
        let shown = "\(error) \(String(reflecting: error)) \(error.hint ?? "") \(error.details.fieldErrors)"
        #expect(!shown.contains("Secr3t"))
    }

    @Test("The client's description and dump show the base URL only")
    func description() {
        let client = MarkbookClient(
            apiKey: TestAccount.apiKey,
            username: TestAccount.username,
            password: TestAccount.password
        )
        #expect(client.description == "MarkbookClient(baseURL: https://smpcsonline.com.au/markbook/api/v1.5)")
        Leaks.expectNone(in: Leaks.render(client))
    }

    @Test("A scanner that can fail: it finds a planted key, password and session value")
    func scannerWorks() {
        #expect(Leaks.found(in: "x\(TestAccount.apiKey)y", sessions: []) == ["API key"])
        #expect(Leaks.found(in: "p=\(TestAccount.password)", sessions: []) == ["password"])
        #expect(Leaks.found(in: "k=918273645", sessions: scriptedSessionValues) == ["session value"])
        #expect(Leaks.found(in: "k=[REDACTED]", sessions: scriptedSessionValues).isEmpty)
    }
}
