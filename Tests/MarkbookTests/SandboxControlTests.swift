import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import MarkbookSandbox
import Testing

@Suite("The Markbook sandbox's test controls over HTTP, for a sandbox in another process")
struct SandboxControlTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("POST options sets and clears result-write faults; GET counters reports writes per cell")
    func controls() async throws {
        try await SandboxHarness.withClient { harness, client in
            let controls = try Client(configuration: ClientConfiguration(baseURL: harness.sandbox.baseURL))
            let path = harness.module.testPath
            #expect(path == "/_test/markbook/api/v1.5")
            func setOptions(_ fields: QueryParameters) async throws {
                _ = try await controls.send(Endpoint<NoContent>(.post, path + "/options", body: .form(fields)))
            }
            func writes() async throws -> JSONValue? {
                try await controls.send(Endpoint<JSONValue>(.get, path + "/counters"))["resultWritesByCell"]
            }

            try await setOptions(["MARKBOOK_SANDBOX_FAIL_RESULTS_AFTER": "1"])
            let sheet = try await client.getMarkbook(key: 1_000_001)
            let (olivia, jack, algebra) = (sheet.students[0], sheet.students[1], sheet.tasks[0])
            try await client.putStudentResult(markbookKey: sheet.key, student: olivia, task: algebra, result: "44")
            let refused = await expectMarkbookError(sessions: harness.sessions) {
                try await client.putStudentResult(markbookKey: sheet.key, student: jack, task: algebra, result: "40")
            }
            #expect(refused?.code == .apiError)
            #expect(try await writes() == ["5001:4001": 1])

            try await setOptions([:])
            try await client.putStudentResult(markbookKey: sheet.key, student: jack, task: algebra, result: "40")
            #expect(try await writes() == ["5001:4001": 1, "5002:4001": 1])
            let counters = try await controls.send(Endpoint<JSONValue>(.get, path + "/counters"))
            #expect(counters["injectedResultFailures"] == 1)

            let bad = await expectMarkbookError {
                try await setOptions(["MARKBOOK_SANDBOX_BACKUP": "tomorrow"])
            }
            #expect(bad?.code == .validation, "a 400")
            #expect(harness.module.counters().injectedResultFailures == 1)
        }
    }
}
