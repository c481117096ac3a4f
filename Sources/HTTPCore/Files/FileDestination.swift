public import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where bytes are about to be written, and how, decided from what the path names.
///
/// - A new path or a regular file is written whole or not at all: the bytes go to a file beside
///   it, which replaces it in one step once complete (an existing file only when ``replacing``
///   allows it).
/// - A device (`/dev/null`, a terminal), a FIFO or a socket, and standard output, are written
///   as a stream, in place: never replaced by a regular file.
/// - A symbolic link is followed: what it points at is what gets written (or created, for a
///   link whose target does not exist yet), and the link itself is kept.
///
/// ```swift
/// let destination = try FileDestination(path: "report.pdf", replacing: false)
/// _ = try await client.download(endpoint, to: destination)
/// ```
public struct FileDestination: Sendable, Hashable {
    /// How the bytes reach the path.
    public enum Kind: Sendable, Hashable {
        /// Nothing is there yet: a file is created, whole or not at all.
        case newFile
        /// A regular file is there: it is replaced, whole, once the new content is complete.
        case regularFile
        /// A device, a FIFO or a socket: written as the bytes arrive.
        case stream
        /// The process's standard output: written as the bytes arrive.
        case standardOutput
    }

    /// The path as it was given, for messages: what the user typed, or `-` for standard output.
    public let path: String
    /// What is written: the path with symbolic links followed (the path itself for a stream).
    public let target: URL
    /// How the bytes reach the path.
    public let kind: Kind
    /// Whether an existing regular file may be replaced.
    public let replacing: Bool

    /// How standard output is named in ``path``.
    public static let standardOutputPath = "-"

    /// The process's standard output, written as a stream.
    public static let standardOutput = FileDestination(
        path: standardOutputPath,
        target: URL(fileURLWithPath: "/dev/stdout"),
        kind: .standardOutput,
        replacing: true
    )

    /// Whether the bytes are written in place as they arrive (a device, FIFO, socket or
    /// standard output), so a failed write cannot be taken back.
    public var isStream: Bool { kind == .stream || kind == .standardOutput }

    private init(path: String, target: URL, kind: Kind, replacing: Bool) {
        self.path = path
        self.target = target
        self.kind = kind
        self.replacing = replacing
    }

    /// Looks at what `path` names now (`-` is standard output).
    ///
    /// - Parameters:
    ///   - path: The path, relative to the current directory or absolute.
    ///   - replacing: Whether an existing regular file may be replaced; when `false`, one that
    ///     exists is refused now, and one that appears before the new content is in place is
    ///     not replaced either.
    /// - Throws: ``FileWriteError`` when the path cannot be written: a file that may not be
    ///   replaced or is read-only, a folder, a folder that does not exist or cannot be written.
    public init(path: String, replacing: Bool = true) throws(FileWriteError) {
        if path == Self.standardOutputPath {
            self = .standardOutput
            return
        }
        let (target, kind) = try Self.inspect(path, replacing: replacing)
        self.init(path: path, target: target, kind: kind, replacing: replacing)
    }

    /// Looks at what `url`, a file URL, names now; see ``init(path:replacing:)``.
    public init(_ url: URL, replacing: Bool = true) throws(FileWriteError) {
        let (target, kind) = try Self.inspect(url.path, replacing: replacing)
        self.init(path: url.path, target: target, kind: kind, replacing: replacing)
    }

    /// An error about this destination.
    func failure(_ reason: FileWriteError.Reason) -> FileWriteError {
        FileWriteError(path: path, reason: reason)
    }

    /// Where `path` leads and how it is written.
    private static func inspect(_ path: String, replacing: Bool) throws(FileWriteError) -> (URL, Kind) {
        func failure(_ reason: FileWriteError.Reason) -> FileWriteError { FileWriteError(path: path, reason: reason) }
        var info = stat()
        // stat(2) follows links, so this is what a link points at.
        guard stat(path, &info) == 0 else {
            guard errno == ENOENT else { throw failure(.system(errno: errno)) }
            return (try newFile(at: path, failure: failure), .newFile)
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            throw failure(.isFolder)
        case S_IFREG:
            guard replacing else { throw failure(.exists) }
            // The replacement goes beside the real file, so the rename stays on its file system
            // and a link keeps pointing at it.
            guard let real = realPath(path) else { throw failure(.system(errno: errno)) }
            // A file its owner made read-only is not replaced, as `cp` would not overwrite it.
            guard access(real, W_OK) == 0 else { throw failure(.system(errno: errno)) }
            try checkWritableFolder(URL(fileURLWithPath: real).deletingLastPathComponent().path, failure: failure)
            return (URL(fileURLWithPath: real), .regularFile)
        default:
            // Opened by its own name, which also works for /dev/fd/N and /proc/self/fd/N.
            return (URL(fileURLWithPath: path), .stream)
        }
    }

    /// Where a file for `path`, which does not exist, is created: a dangling link's target, in
    /// its folder with links followed.
    private static func newFile(
        at path: String,
        failure: (FileWriteError.Reason) -> FileWriteError
    ) throws(FileWriteError) -> URL {
        var current = URL(fileURLWithPath: path)
        var hops = 0
        while let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) {
            hops += 1
            guard hops <= 32 else { throw failure(.system(errno: ELOOP)) }
            current =
                URL(fileURLWithPath: destination, relativeTo: current.deletingLastPathComponent())
                .standardizedFileURL
        }
        let folder = current.deletingLastPathComponent().path
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw failure(.missingFolder(folder))
        }
        try checkWritableFolder(folder, failure: failure)
        guard let real = realPath(folder) else { throw failure(.system(errno: errno)) }
        return URL(fileURLWithPath: real, isDirectory: true).appending(path: current.lastPathComponent)
    }

    /// Fails now, before any work, when files cannot be created in `folder`.
    private static func checkWritableFolder(
        _ folder: String,
        failure: (FileWriteError.Reason) -> FileWriteError
    ) throws(FileWriteError) {
        guard access(folder, W_OK | X_OK) == 0 else { throw failure(.system(errno: errno)) }
    }

    /// `path` with every link and `..` resolved; `nil` (and `errno` set) when it cannot be.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
