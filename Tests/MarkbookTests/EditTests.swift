import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import MarkbookSandbox
import Testing

/// The SDK's read-then-write helpers: a student's names merged with what the markbook lists, and a
/// result checked against the task before it is written.
@Suite("Edits that read the markbook first")
struct EditTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("updateStudent merges: names not given are sent as listed, and the update is returned")
    func updateStudentMerges() async throws {
        try await SandboxHarness.withClient { harness, client in
            let updated = try await client.updateStudent(
                markbookKey: 1_000_001,
                studentKey: 5004,
                MarkbookStudentUpdate(gender: .female, preferredName: "Soph")
            )
            #expect(updated.preferredName == "Soph")
            let stored = try #require(harness.module.student(markbookKey: 1_000_001, studentKey: 5004))
            #expect(stored.familyName == "Dimitriou" && stored.givenName == "Sophia" && stored.preferredName == "Soph")
            #expect(updated.familyName == stored.familyName && updated.givenName == stored.givenName)
            #expect(harness.module.counters().requestsByAction == ["getmarkbook": 1, "updatestudent": 1])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A student, task or class the markbook does not list is not_found naming it, and nothing is written")
    func lookups() async throws {
        try await SandboxHarness.withClient { harness, client in
            let student = await expectMarkbookError(.notFound) {
                _ = try await client.updateStudent(
                    markbookKey: 1_000_001,
                    studentKey: 5999,
                    MarkbookStudentUpdate(gender: .male, familyName: "X")
                )
            }
            #expect(student?.message == "Markbook 1000001 lists no student 5999.")
            #expect(student?.cause as? MarkbookItemNotFound == .init(kind: .student, key: 5999, markbookKey: 1_000_001))
            let task = await expectMarkbookError(.notFound) {
                _ = try await client.setResult(markbookKey: 1_000_001, studentKey: 5004, taskKey: 9, to: "1")
            }
            #expect(task?.message == "Markbook 1000001 has no task 9.")
            #expect(task?.hint?.hasPrefix("Tasks: 4001 Algebra test, ") == true)
            #expect((task?.cause as? MarkbookItemNotFound)?.kind == .task)
            let sheet = try await client.getMarkbook(key: 1_000_001)
            #expect(throws: APIError.self) { try sheet.requireClass(key: 9) }
            #expect(try sheet.requireClass(key: 3001).name == "10MAT1-A")
            #expect(harness.module.counters().appliedWritesByAction.isEmpty)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("setResult checks the value against the task and writes its shortest form; empty clears")
    func setResultChecks() async throws {
        try await SandboxHarness.withClient { harness, client in
            let change = try await client.setResult(
                markbookKey: 1_000_001,
                studentKey: 5004,
                taskKey: 4003,
                to: " 021.50 "
            )
            #expect(change.result == "21.5")
            #expect(change.previous == nil)
            #expect(change.task.name == "Statistics investigation")
            #expect(harness.module.result(markbookKey: 1_000_001, studentKey: 5004, taskKey: 4003) == "21.5")

            for (value, problem) in [
                ("213", MarkbookValueProblem.outOfRange(maximum: 30)), ("1e3", .notADecimal), ("A", .notANumber),
                ("1.1234567", .tooManyDecimalPlaces(allowed: 6)),
            ] {
                let refused = await expectMarkbookError(.usage) {
                    _ = try await client.setResult(markbookKey: 1_000_001, studentKey: 5004, taskKey: 4003, to: value)
                }
                #expect(refused?.cause as? MarkbookValueProblem == problem, "\(value)")
            }
            let range = await expectMarkbookError(.usage) {
                _ = try await client.setResult(markbookKey: 1_000_001, studentKey: 5004, taskKey: 4003, to: "213")
            }
            #expect(range?.message == "213 is outside 0…30, the range of Statistics investigation.")
            #expect(harness.module.counters().resultWritesByCell.values.reduce(0, +) == 1, "no refused value was sent")

            let grade = try await client.setResult(
                markbookKey: 1_000_001,
                studentKey: 5004,
                taskKey: 4003,
                to: "A",
                rules: MarkbookResultRules(allowsText: true)
            )
            #expect(grade.previous?.raw.hasPrefix("21.5") == true)
            let cleared = try await client.setResult(markbookKey: 1_000_001, studentKey: 5004, taskKey: 4003, to: "")
            #expect(cleared.result.isEmpty)
            #expect(harness.module.result(markbookKey: 1_000_001, studentKey: 5004, taskKey: 4003) ?? "" == "")
        }
    }
}
