import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore

/// One task's share of a worker's work: until its deadline, a realistic mix on the one account:
/// half cached list walks through the SDK's pagination (the projects, a to-do list that does not
/// change), the rest creating to-dos and editing the ones it created, each edit once.
struct FleetWorkload: Sendable {
    /// Every to-do the fleet creates starts with this, so the sandbox can find them.
    static let contentPrefix = "fleet-"
    /// What an edit writes into a to-do's description.
    static let editMark = "edited by the fleet"

    let account: AccountClient
    /// Names the task in what it writes: `fleet-RUN-wWORKER-tTASK-N`.
    let name: String
    let deadline: ContinuousClock.Instant

    /// Works until the deadline or until the sign-in is lost, and returns what it did. An
    /// operation under way at the deadline is finished, never cut off, so a write's fate is
    /// known.
    func run() async -> FleetCounts {
        var counts = FleetCounts(role: "worker")
        var (walks, creates, createsDone, edits, editsDone) = (0, 0, 0, 0, 0)
        var failures: [String: Int] = [:]
        var unedited: [(id: Int64, content: String)] = []
        var generator = SystemRandomNumberGenerator()
        var signedOut = false
        while ContinuousClock.now < deadline, !signedOut {
            let pick = Int.random(in: 0..<10, using: &generator)
            do {
                if pick < 5 {
                    walks += 1
                    try await walk(projects: pick < 2)
                } else if pick >= 8, let todo = unedited.popLast() {
                    edits += 1
                    _ = try await account.todos.replace(
                        todoID: todo.id,
                        ReplaceTodoRequest(content: todo.content, description: Self.editMark)
                    )
                    editsDone += 1
                } else {
                    creates += 1
                    let content = "\(Self.contentPrefix)\(name)-\(creates)"
                    let todo = try await account.todos.create(
                        todolistID: Int64(BasecampSandboxSeed.launchChecklistTodolistID),
                        CreateTodoRequest(content: content)
                    )
                    createsDone += 1
                    unedited.append((todo.id, content))
                }
            } catch {
                let code = (error as? APIError)?.code.rawValue ?? "other"
                failures[code, default: 0] += 1
                // The tools' errors never hold a secret, so the run's log can say what failed.
                FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
                // A refused refresh signs the whole worker out: a job would stop here.
                signedOut = code == APIError.Code.authRequired.rawValue
            }
        }
        (counts.walks, counts.creates, counts.createsDone) = (walks, creates, createsDone)
        (counts.edits, counts.editsDone, counts.failures) = (edits, editsDone, failures)
        counts.signedOut = signedOut
        return counts
    }

    /// Reads a whole list page by page; pages the cache holds are revalidated (`304`).
    private func walk(projects: Bool) async throws {
        if projects {
            for try await _ in account.projects.listPaginated() {}
        } else {
            let list = Int64(BasecampSandboxSeed.hardwareTodolistID)
            for try await _ in account.todos.listPaginated(todolistID: list) {}
        }
    }
}
