import APISandbox
import Foundation
import HTTPCore

/// The sandbox account's data behind a lock, optionally kept in a state file: read when the
/// module is created and written atomically once per change, so separate `basecamp --sandbox`
/// processes see each other's writes (the last of two at once wins). A change that cannot be
/// saved is not applied, and the request fails with a 500 naming the file.
final class AccountStore: Sendable {
    private let data: Locked<AccountData>
    let stateFile: SandboxStateFile?

    /// An in-memory account, starting from the seed.
    init() {
        self.stateFile = nil
        self.data = Locked(.seeded())
    }

    /// The account saved in `file`, or the seed when there is no file yet.
    ///
    /// - Throws: ``APISandbox/SandboxStateFileError`` when the file cannot be read, is damaged or
    ///   of another layout (one written before every kind was a ``Record`` included), or cannot
    ///   be written.
    init(stateFile file: SandboxStateFile) throws {
        self.stateFile = file
        do {
            self.data = Locked(try file.load(AccountData.self, version: AccountData.currentVersion) ?? .seeded())
        } catch let error as SandboxStateFileError where error.problem == .otherVersion {
            throw file.failure(.otherVersion, error.detail + "; delete it to start afresh")
        }
    }

    func snapshot() -> AccountData {
        data.withLock { $0 }
    }

    /// Applies `change` and saves, once; what `change` returns is passed on. A change that
    /// throws, or that cannot be saved, leaves the data as it was.
    ///
    /// - Throws: What `change` throws, or ``APIFailure`` 500 when the state file cannot be written.
    func update<Result: Sendable>(_ change: (inout AccountData) throws -> Result) throws -> Result {
        try data.withLock { data -> Result in
            var copy = data
            let result = try change(&copy)
            do {
                try stateFile?.save(copy)
            } catch {
                throw APIFailure(500, "The sandbox could not save its data: \(error)")
            }
            data = copy
            return result
        }
    }

    /// Goes back to the seeded account, and saves it.
    func reset() throws {
        try update { $0 = .seeded() }
    }
}
