#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why bytes could not be written where they were meant to go: the path as it was given and the
/// reason in words, never a Foundation error's text.
///
/// ```swift
/// do {
///     _ = try await client.download(endpoint, to: FileDestination(URL(fileURLWithPath: "report.pdf")))
/// } catch let error as FileWriteError {
///     print(error)   // "Cannot write report.pdf: No space left on device."
/// }
/// ```
public struct FileWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What stopped the write.
    public enum Reason: Sendable, Hashable {
        /// A regular file is already there, and the destination was not allowed to replace it.
        case exists
        /// The path names a folder.
        case isFolder
        /// The folder the file would go in does not exist.
        case missingFolder(String)
        /// A download began again from its first byte after part of it had gone to a stream
        /// (a device, a pipe, standard output), which cannot take the part back.
        case streamRestarted
        /// Another download is writing the same partial file (`NAME.partial`) right now.
        case inUse
        /// The system refused a step; `errno` says why.
        case system(errno: Int32)
    }

    /// The path as the caller gave it, or `-` for standard output.
    public var path: String
    /// What stopped the write.
    public var reason: Reason

    /// Creates an error for `path`.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// Whether the write went to the process's standard output.
    public var isStandardOutput: Bool { path == FileDestination.standardOutputPath }

    /// Whether standard output's reader went away (`tool | head`), which command-line tools end
    /// quietly on, as for any other closed pipe.
    public var isClosedStandardOutput: Bool { isStandardOutput && reason == .system(errno: EPIPE) }

    /// One sentence: `Cannot write notes.txt: No space left on device.`
    public var description: String {
        switch reason {
        case .exists: return "\(path) already exists."
        default: return "Cannot write \(isStandardOutput ? "to standard output" : path): \(explanation)."
        }
    }

    /// The reason alone, in words: `No space left on device`, `it is a folder`.
    public var explanation: String {
        switch reason {
        case .exists:
            return "it already exists"
        case .isFolder:
            return "it is a folder"
        case .missingFolder(let folder):
            return "the folder \(folder) does not exist"
        case .streamRestarted:
            return "the download started again from its first byte, and the part already written cannot be taken back"
        case .inUse:
            return "another download is writing this file now; wait for it to finish"
        case .system(let code):
            return Self.words(for: code)
        }
    }

    /// The system's sentence for `code`, e.g. "No space left on device".
    static func words(for code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
