import Foundation
import NIOConcurrencyHelpers

/// A stateful module's data, in memory or in a ``SandboxStateFile`` that several processes share:
/// each change is made on the file's data as it is right then, holding the file's lock, and saved
/// before the lock is released, so none overwrites another's and keys derived from the data stay
/// unique across them; a read sees the file's latest data, re-read when the file has changed.
///
/// ```swift
/// let saved = try SavedState(file: SandboxStateFile(url), version: Shop.currentVersion, initial: Shop.seed)
/// let orderID = try saved.update { shop in shop.placeOrder() }
/// ```
public final class SavedState<Value: Codable & Equatable & Sendable>: Sendable {
    /// The file the data is kept in; `nil` keeps it in memory.
    public let file: SandboxStateFile?
    private let version: Int
    private let state: NIOLockedValueBox<(value: Value, modified: FileStamp?)>

    /// Data kept in memory only, starting as `initial`.
    public init(_ initial: Value) {
        (file, version) = (nil, 0)
        state = NIOLockedValueBox((initial, nil))
    }

    /// Data kept in `file`, read now; `initial` until the file is first written.
    ///
    /// - Parameters:
    ///   - file: The state file.
    ///   - version: The layout the module reads (see ``SandboxStateFile/load(_:version:)``).
    ///   - initial: The value to start from when there is no saved one yet.
    /// - Throws: ``SandboxStateFileError`` when the file cannot be used.
    public init(file: SandboxStateFile, version: Int, initial: Value) throws {
        (self.file, self.version) = (file, version)
        let modified = Self.modified(file)
        state = NIOLockedValueBox((try file.load(Value.self, version: version) ?? initial, modified))
    }

    /// The data as it is now; with a file, as another process may have left it.
    public func snapshot() -> Value {
        state.withLockedValue { state in
            guard let file, let modified = Self.modified(file), modified != state.modified,
                let saved = try? file.load(Value.self, version: version)
            else { return state.value }
            state = (saved, modified)
            return saved
        }
    }

    /// Applies `change` and, with a file, saves the result as one step among the processes that
    /// share it; what `change` returns is passed on. When `change` throws, or the result cannot be
    /// saved, the data is left as it was.
    ///
    /// - Throws: What `change` throws, or ``SandboxStateFileError``.
    public func update<Result>(_ change: (inout Value) throws -> Result) throws -> Result {
        try state.withLockedValue { state in
            var value = state.value
            guard let file else {
                let result = try change(&value)
                state.value = value
                return result
            }
            let result = try file.update(Value.self, version: version, initial: value) { saved in
                defer { value = saved }
                return try change(&saved)
            }
            // Not stamped: another process may write between this save and a stamp read now, so
            // the next read looks at the file again.
            state = (value, nil)
            return result
        }
    }

    private static func modified(_ file: SandboxStateFile) -> FileStamp? {
        FileStamp(path: file.url.path)
    }
}

/// What tells one version of a file from the next: every save renames a new file into place, so
/// its inode changes even when two saves fall in the same tick of the file system's clock.
struct FileStamp: Equatable, Sendable {
    let inode: UInt64
    let seconds: Int
    let nanoseconds: Int

    /// The file's stamp; `nil` when it cannot be read (it does not exist yet).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        #if canImport(Darwin)
        (seconds, nanoseconds) = (info.st_mtimespec.tv_sec, info.st_mtimespec.tv_nsec)
        #else
        (seconds, nanoseconds) = (info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
        #endif
    }
}
