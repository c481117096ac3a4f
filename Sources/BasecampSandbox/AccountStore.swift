import Foundation
import HTTPCore

/// The sandbox account's data behind a lock, optionally kept in a file between runs.
///
/// With a state file, the data is read when the sandbox starts and written (to a temporary file,
/// then renamed over the old one) after every change, so separate `basecamp --sandbox` processes
/// see each other's writes. Two processes writing at the same moment: the last write wins.
final class AccountStore: Sendable {
    private let data: Locked<AccountData>
    let stateFile: URL?

    init(stateFile: URL?) {
        self.stateFile = stateFile
        self.data = Locked(Self.load(stateFile) ?? .seeded())
    }

    /// A snapshot for reading.
    func snapshot() -> AccountData {
        data.withLock { $0 }
    }

    /// Applies `change` and saves; what `change` returns is passed on. A change that throws
    /// leaves the data as it was.
    func update<Result: Sendable>(_ change: (inout AccountData) throws -> Result) rethrows -> Result {
        let (result, saved) = try data.withLock { data -> (Result, AccountData) in
            var copy = data
            let result = try change(&copy)
            data = copy
            return (result, copy)
        }
        save(saved)
        return result
    }

    /// Goes back to the seeded account (and saves it).
    func reset() {
        let seeded = AccountData.seeded()
        data.withLock { $0 = seeded }
        save(seeded)
    }

    private func save(_ snapshot: AccountData) {
        guard let stateFile else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let encoded = try? encoder.encode(snapshot) else { return }
        // A failed save (read-only directory, full disk) must not fail the request that caused it;
        // the data stays in memory for this run.
        try? encoded.write(to: stateFile, options: .atomic)
    }

    /// The saved account, or `nil` when there is no file or it is not a current state file.
    private static func load(_ url: URL?) -> AccountData? {
        guard let url, let contents = try? Data(contentsOf: url),
            let data = try? JSONDecoder().decode(AccountData.self, from: contents),
            data.version == AccountData.currentVersion
        else { return nil }
        return data
    }
}
