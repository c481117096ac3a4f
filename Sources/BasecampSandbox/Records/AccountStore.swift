import APISandbox
import Foundation
import HTTPCore

/// The sandbox account's data (``APISandbox/SavedState``), optionally in a state file that several `basecamp --sandbox`
/// processes share, and its uploaded files: beside the state file, or in a temporary folder. A change that cannot be
/// saved is not applied, and the request fails with a 500 naming the file.
final class AccountStore: Sendable {
    private let saved: SavedState<AccountData>
    let files: BodyFiles
    var stateFile: SandboxStateFile? { saved.file }

    /// An in-memory account, starting from the seed.
    init() {
        (saved, files) = (SavedState(.seeded), .temporary())
    }

    /// The account saved in `file`, or the seed when there is no file yet.
    ///
    /// - Throws: ``APISandbox/SandboxStateFileError`` when the file cannot be read, is damaged,
    ///   is of another layout (from before every kind was a ``Record``), or cannot be written.
    init(stateFile file: SandboxStateFile) throws {
        files = BodyFiles(directory: URL(fileURLWithPath: file.url.path + ".files"))
        do {
            saved = try SavedState(file: file, version: AccountData.currentVersion, initial: .seeded)
        } catch let error as SandboxStateFileError where error.problem == .otherVersion {
            throw file.failure(.otherVersion, error.detail + "; delete it to start afresh")
        }
    }

    func snapshot() -> AccountData { saved.snapshot() }

    /// Applies `change` and saves, once; what `change` returns is passed on. A change that
    /// throws, or that cannot be saved, leaves the data as it was.
    ///
    /// - Throws: What `change` throws, or ``APIFailure`` 500 when the state file cannot be written.
    func update<Result: Sendable>(_ change: (inout AccountData) throws -> Result) throws -> Result {
        do {
            return try saved.update(change)
        } catch let error as SandboxStateFileError {
            throw APIFailure(500, "The sandbox could not save its data: \(error)")
        }
    }

    /// Goes back to the seeded account, and saves it.
    func reset() throws {
        try update { $0 = .seeded }
    }
}
