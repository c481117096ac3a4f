import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Markbook
import MarkbookSandbox
import Testing

@Suite("Retry follows each action's idempotency, never the GET method")
struct RetryTests {
    @Test(
        "A lost connection: safe actions are retried, creates are ambiguous after one attempt",
        arguments: ShapeCase.all
    )
    func lostConnection(_ shape: ShapeCase) async throws {
        let transport = ScriptedTransport([
            loginOK, .connectionLost, .json(envelope(shape.action.rawValue, shape.answer)),
        ])
        let client = try scriptedClient(transport)
        if shape.action.isIdempotent {
            try await shape.call(client)
            #expect(transport.requests.count == 3)
        } else {
            let error = try #require(
                await expectMarkbookError(.ambiguous, sessions: scriptedSessionValues) { try await shape.call(client) }
            )
            #expect(error.exitCode == 8)
            #expect(transport.requests.count == 2, "sent once, never repeated")
        }
    }

    @Test("A 503: safe actions are retried, creates fail with it after one attempt", arguments: ShapeCase.all)
    func serviceUnavailable(_ shape: ShapeCase) async throws {
        let transport = ScriptedTransport([loginOK, .status(503), .json(envelope(shape.action.rawValue, shape.answer))])
        let client = try scriptedClient(transport)
        if shape.action.isIdempotent {
            try await shape.call(client)
            #expect(transport.requests.count == 3)
        } else {
            let error = try #require(await expectMarkbookError(.apiError) { try await shape.call(client) })
            #expect(error.httpStatus == 503)
            #expect(transport.requests.count == 2)
        }
    }

    @Test("A refused connection is retried even for a create: nothing reached the server")
    func refusedCreate() async throws {
        let transport = ScriptedTransport([
            loginOK, .connectionRefused, .json(envelope("createclass", ["classkey": 3005])),
        ])
        let key = try await scriptedClient(transport).createClass(
            markbookKey: 1_000_001,
            name: "10MAT1-C",
            teacherFamilyName: "",
            teacherGivenName: ""
        )
        #expect(key == 3005)
    }

    @Test("createmarkbook (POST post.lc) with a lost connection is ambiguous after one attempt")
    func createMarkbookAmbiguous() async throws {
        var payload = RequestShapeTests.payload
        payload.schoolName = "School"
        let transport = ScriptedTransport([loginOK, .connectionLost, .json(envelope("createmarkbook"))])
        await expectMarkbookError(.ambiguous) { _ = try await scriptedClient(transport).createMarkbook(payload) }
        #expect(transport.requests.count == 2)
    }

    @Test("An idempotency-key header in the configuration cannot make a create retryable: Markbook ignores keys")
    func idempotencyKeyIgnored() async throws {
        let transport = ScriptedTransport([
            loginOK, .connectionLost, .json(envelope("createstudent", ["studentkey": 1])),
        ])
        let client = try scriptedClient(transport) { $0.idempotencyKeyHeader = .idempotencyKey }
        await expectMarkbookError(.ambiguous) {
            _ = try await client.createStudent(
                markbookKey: 1_000_001,
                sid: "1",
                familyName: "A",
                givenName: "B",
                preferredName: "",
                gender: .other,
                classKey: 3001
            )
        }
        #expect(transport.requests.count == 2)
        #expect(transport.requests.last?.header("Idempotency-Key") == nil)
    }

    @Test("The action table: reads and absolute writes are idempotent, creates are not")
    func table() {
        let notIdempotent = MarkbookAction.allCases.filter { !$0.isIdempotent }
        #expect(Set(notIdempotent) == [.createStudent, .createClass, .createMarkbook])
        for action in MarkbookAction.allCases {
            #expect(action.operation.idempotent == action.isIdempotent, "stated explicitly, never left to the method")
            #expect(action.operation.service == "markbook")
        }
    }

    // MARK: Over real HTTP

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Over HTTP: a create whose answer is dropped is ambiguous and applied exactly once (no transport resend)")
    func droppedCreateOverHTTP() async throws {
        try await SandboxHarness.withClient { harness, client in
            // Warm up: log in and leave a keep-alive connection that the create could reuse.
            _ = try await client.getMarkbook(key: 1_000_001)
            harness.sandbox.setFaults(FaultInjection(sequence: [.connection(.dropResponse)]))
            await expectMarkbookError(.ambiguous, sessions: harness.sessions) {
                _ = try await client.createAanyaPatel()
            }
            #expect(harness.module.counters().requestsByAction["createstudent"] == 1)
            #expect(harness.module.counters().appliedWritesByAction["createstudent"] == 1)
            let sheet = try await client.getMarkbook(key: 1_000_001)
            #expect(sheet.students.filter { $0.studentID == "100399" }.count == 1, "one student, not two")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Over HTTP: a result whose answer is dropped is sent again and lands once, with the value asked for")
    func droppedResultOverHTTP() async throws {
        try await SandboxHarness.withClient { harness, client in
            _ = try await client.markbookList()
            harness.sandbox.setFaults(FaultInjection(sequence: [.connection(.dropResponse)]))
            try await client.putStudentResult(
                markbookKey: 1_000_001,
                studentKey: 5002,
                sid: "100251",
                taskKey: 4004,
                taskName: "Term 1 exam",
                result: "77"
            )
            #expect(harness.module.result(markbookKey: 1_000_001, studentKey: 5002, taskKey: 4004) == "77")
            let sheet = try await client.getMarkbook(key: 1_000_001)
            #expect(sheet.result(studentKey: 5002, taskKey: 4004)?.roundedValue == 77)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Over HTTP: a 503 is retried for a read; createclass is sent once, refused by a 503, ambiguous after a 502",
        arguments: [
            (SandboxFault.serviceUnavailable, APIError.Code.apiError, 503, ["10MAT1-A", "10MAT1-B"]),
            (.badGatewayAfterRunning, .ambiguous, 502, ["10MAT1-A", "10MAT1-B", "10MAT1-C"]),
        ]
    )
    func serverErrorsOverHTTP(fault: SandboxFault, code: APIError.Code, status: Int, classes: [String]) async throws {
        try await SandboxHarness.withClient { harness, client in
            _ = try await client.markbookList()
            harness.sandbox.setFaults(FaultInjection(sequence: [.serviceUnavailable]))
            let sheet = try await client.getMarkbookAlt(key: 1_000_001)
            #expect(sheet.students.count == 8)
            harness.sandbox.setFaults(FaultInjection(sequence: [fault]))
            let error = try #require(
                await expectMarkbookError(code) {
                    _ = try await client.createClass(
                        markbookKey: 1_000_001,
                        name: "10MAT1-C",
                        teacherFamilyName: "Okafor",
                        teacherGivenName: "Ms Ada"
                    )
                }
            )
            #expect(error.httpStatus == status)
            #expect(error.isRetryable == (code == .apiError), "a 503 left it unapplied; a 502 may not have")
            #expect(harness.module.classNames(markbookKey: 1_000_001) == classes)
        }
    }
}
