import APISandbox
import Foundation
import HTTPCore

/// The sandbox account's data behind a lock, optionally kept in a file between runs.
///
/// With a state file, the data is read when the module is created and written (to a temporary
/// file, then renamed over the old one) once per change, so separate `basecamp --sandbox`
/// processes see each other's writes. Two processes writing at the same moment: the last write
/// wins. A change that cannot be saved is not applied, and the request fails with a 500 naming
/// the file.
final class AccountStore: Sendable {
    private let data: Locked<AccountData>
    let stateFile: SandboxStateFile?

    /// An in-memory account, starting from the seed.
    init() {
        self.stateFile = nil
        self.data = Locked(.seeded())
    }

    /// The account saved in `file`, or the seed when there is no file yet. A file an earlier
    /// sandbox wrote (layout 1) is read and converted; it is rewritten on the first change.
    ///
    /// - Throws: ``APISandbox/SandboxStateFileError`` when the file cannot be read, is damaged or
    ///   from another layout, or cannot be written.
    init(stateFile file: SandboxStateFile) throws {
        self.stateFile = file
        let saved: AccountData?
        do {
            saved = try file.load(AccountData.self, version: AccountData.currentVersion)
        } catch let newer as SandboxStateFileError where newer.problem == .otherVersion {
            do {
                saved = try file.load(JSONValue.self, version: 1).map {
                    try AccountData.converting(layoutOne: $0, in: file)
                }
            } catch let other as SandboxStateFileError where other.problem == .otherVersion {
                throw newer
            }
        }
        self.data = Locked(saved ?? .seeded())
    }

    /// A snapshot for reading.
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

    /// Goes back to the seeded account (and saves it).
    ///
    /// - Throws: ``APIFailure`` 500 when the state file cannot be written.
    func reset() throws {
        try update { $0 = .seeded() }
    }
}
