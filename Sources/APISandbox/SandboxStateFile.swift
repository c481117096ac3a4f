public import Foundation
import HTTPCore

/// A JSON file a stateful sandbox module keeps its data in between runs, so separate processes
/// (one `basecamp --sandbox` command after another) see each other's changes.
///
/// Nothing is ever silently replaced: a file that cannot be read, is not JSON of the module's
/// shape, or sits where nothing can be written is a ``SandboxStateFileError`` naming the file.
/// Writes go to a temporary file that is then renamed over the old one, so a crash mid-write
/// leaves the previous state whole; the file is created with permissions 0600.
public struct SandboxStateFile: Sendable, Hashable {
    /// Where the file is.
    public let url: URL

    /// Names the file; nothing is read or written yet.
    public init(_ url: URL) {
        self.url = url
    }

    /// Reads the saved value, after checking the file could also be written back.
    ///
    /// - Parameters:
    ///   - type: The module's saved data; a JSON object with a top-level integer `version`.
    ///   - version: The layout the module reads; a file with another is refused before it is
    ///     decoded, so the message says so rather than naming a missing key.
    /// - Returns: `nil` when there is no file yet (the module starts from its seed and the file
    ///   is created on the first change).
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
        }
    }
}
