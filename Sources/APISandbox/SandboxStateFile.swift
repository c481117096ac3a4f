public import Foundation
import HTTPCore

/// A JSON file a stateful sandbox module keeps its data in between runs, so separate processes
/// (one `basecamp --sandbox` command after another, or several at once) see each other's changes.
///
/// Change it with ``update(_:version:initial:_:)``: the change runs holding an exclusive lock on
/// ``lockURL`` (shared by every process that uses the file), on the value as the file holds it
/// right then, and is written before the lock is released, so no process overwrites another's
/// change and keys derived from the saved data are unique across processes.
///
/// Nothing is ever silently replaced: a file that cannot be read, is not JSON of the module's
/// shape, or sits where nothing can be written is a ``SandboxStateFileError`` naming the file.
/// An empty file (as `mktemp` leaves it) is a new state, like a missing one. Writes go to a
/// temporary file that is then renamed over the old one, so a crash mid-write leaves the previous
/// state whole and a reader never sees half a file; the file is created with permissions 0600.
public struct SandboxStateFile: Sendable, Hashable {
    /// Where the file is.
    public let url: URL
    /// The longest ``update(_:version:initial:_:)`` waits for another process's change.
    public var lockTimeout: Duration

    /// Names the file; nothing is read or written yet.
    ///
    /// - Parameters:
    ///   - url: The state file.
    ///   - lockTimeout: The longest a change waits for another process's change (10 s; a change
    ///     takes milliseconds).
    public init(_ url: URL, lockTimeout: Duration = .seconds(10)) {
        self.url = url
        self.lockTimeout = lockTimeout
    }

    /// The lock file changes take turns on: the state file's name plus `.lock`, beside it. It is
    /// created on the first change and left in place.
    public var lockURL: URL {
        FileLock(beside: url).url
    }

    /// Changes the saved value as one step among all the processes that share the file: takes the
    /// lock, reads the file, runs `change` on its value (`initial` when the file is missing or
    /// empty), writes the result if it differs from what was read, and releases the lock.
    ///
    /// ```swift
    /// let key = try file.update(Saved.self, version: Saved.currentVersion, initial: Saved()) { saved in
    ///     saved.lastKey += 1
    ///     return saved.lastKey
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The module's saved data; a JSON object with a top-level integer `version`.
    ///   - version: The layout the module reads (see ``load(_:version:)``).
    ///   - initial: The value to start from when there is no saved one yet.
    ///   - change: Changes the value; what it returns is returned. When it throws, nothing is
    ///     written.
    /// - Throws: ``SandboxStateFileError`` when the file cannot be read, decoded or written, or
    ///   another process held the lock longer than ``lockTimeout`` (``SandboxStateFileError/Problem/busy``);
    ///   what `change` throws.
    public func update<Value: Codable & Equatable, Result>(
        _ type: Value.Type,
        version: Int,
        initial: @autoclosure () -> Value,
        _ change: (inout Value) throws -> Result
    ) throws -> Result {
        try checkWritable()
        do {
            return try FileLock(lockURL).withLock(timeout: lockTimeout) {
                let before = try load(type, version: version) ?? initial()
                var value = before
                let result = try change(&value)
                if value != before { try save(value) }
                return result
            }
        } catch FileLock.Failure.timedOut {
            throw failure(.busy, "another process kept it locked (\(lockURL.path)) for over \(lockTimeout)")
        } catch FileLock.Failure.unavailable(let reason) {
            throw failure(.unwritable, "its lock file \(lockURL.path) cannot be used (\(reason))")
        }
    }

    /// Reads the saved value, after checking the file could also be written back.
    ///
    /// - Parameters:
    ///   - type: The module's saved data; a JSON object with a top-level integer `version`.
    ///   - version: The layout the module reads; a file with another is refused before it is
    ///     decoded, so the message says so rather than naming a missing key.
    /// - Returns: `nil` when there is no file yet or it is empty (the module starts from its seed
    ///   and the file is written on the first change).
    /// - Throws: ``SandboxStateFileError`` when the file cannot be read or decoded, holds another
    ///   layout, or when its directory does not exist or is not writable.
    public func load<Value: Decodable>(_ type: Value.Type, version: Int) throws -> Value? {
        try checkWritable()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        guard !isDirectory.boolValue else { throw failure(.unreadable, "it is a directory") }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw failure(.unreadable, "permission denied")
        }
        let contents: Data
        do {
            contents = try Data(contentsOf: url)
        } catch {
            throw failure(.unreadable, error.localizedDescription)
        }
        // `mktemp` makes the file before anything is written to it.
        if contents.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return nil }
        do {
            let saved = try JSONDecoder().decode(Layout.self, from: contents).version
            guard saved == version else {
                throw failure(.otherVersion, "it holds layout \(saved), this sandbox reads layout \(version)")
            }
            return try JSONDecoder().decode(Value.self, from: contents)
        } catch let error as SandboxStateFileError {
            throw error
        } catch let error as DecodingError {
            throw failure(.notValid, Self.explain(error))
        } catch {
            throw failure(.notValid, "\(error)")
        }
    }

    /// The part every state file shares.
    private struct Layout: Decodable {
        var version: Int
    }

    /// Writes `value` as JSON, atomically, readable by its owner only (it may hold the
    /// sandbox's tokens and secrets).
    ///
    /// It takes no lock: where other processes may change the file too, change it with
    /// ``update(_:version:initial:_:)`` instead, so their changes are not overwritten.
    ///
    /// - Throws: ``SandboxStateFileError`` when it cannot be written; the old file is left as
    ///   it was.
    public func save(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw failure(.unwritable, "its data could not be encoded (\(error))")
        }
        do {
            try PrivateFile.save(data, to: url)
        } catch {
            throw failure(.unwritable, error.explanation)
        }
    }

    /// Checks that the file's directory exists and is writable (an atomic write replaces the
    /// file by renaming, so the directory is what must be writable).
    ///
    /// - Throws: ``SandboxStateFileError`` with ``SandboxStateFileError/Problem/unwritable``.
    public func checkWritable() throws {
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw failure(.unwritable, "the directory \(directory) does not exist") }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw failure(.unwritable, "the directory \(directory) is not writable")
        }
    }

    /// An error about this file.
    public func failure(_ problem: SandboxStateFileError.Problem, _ detail: String) -> SandboxStateFileError {
        SandboxStateFileError(path: url.path, problem: problem, detail: detail)
    }

    private static func explain(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            path.isEmpty
                ? "the top level" : path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not valid JSON"
        case .dataCorrupted(let context):
            return "the value at \(place(context.codingPath)) is not valid"
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(place(context.codingPath)) has the wrong type"
        @unknown default:
            return "it does not have the expected shape"
        }
    }
}

/// Why a sandbox state file cannot be used; its description names the file and the problem.
public struct SandboxStateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Hashable {
        /// The file exists but cannot be read.
        case unreadable
        /// The file is not JSON of the module's shape.
        case notValid
        /// The file was written by a sandbox that keeps its data in another layout.
        case otherVersion
        /// The file cannot be written.
        case unwritable
        /// Another process kept the file locked longer than the wait allowed.
        case busy
    }

    /// The file's path.
    public var path: String
    /// What is wrong.
    public var problem: Problem
    /// The particulars, e.g. `permission denied`.
    public var detail: String

    /// Creates an error.
    public init(path: String, problem: Problem, detail: String) {
        self.path = path
        self.problem = problem
        self.detail = detail
    }

    /// One sentence: `Cannot read the sandbox state file /tmp/state.json: permission denied.`
    public var description: String {
        switch problem {
        case .unreadable: return "Cannot read the sandbox state file \(path): \(detail)."
        case .notValid: return "The sandbox state file \(path) is damaged: \(detail)."
        case .otherVersion: return "The sandbox state file \(path) is from another version of the sandbox: \(detail)."
        case .unwritable: return "Cannot write the sandbox state file \(path): \(detail)."
        case .busy: return "The sandbox state file \(path) is busy: \(detail)."
        }
    }
}
