import ArgumentParser
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that its final name only ever holds a complete file: the bytes go to a
/// hidden temporary file beside it (same directory, so same file system), which is flushed to
/// disk and then renamed over the destination in one step. An interrupted or failed write leaves
/// the destination as it was and removes the temporary file.
///
/// ```swift
/// let file = try AtomicFileWriter(destination: URL(fileURLWithPath: "backup.zip"))
/// for chunk in chunks { try file.write(chunk) }
/// try file.commit()
/// ```
///
/// Every failure is a ``CommandFailure`` with code `output_failed` (exit 1) naming the path.
public final class AtomicFileWriter {
    /// Where the file ends up.
    public let destination: URL
    /// The temporary file being written, beside ``destination``.
    public let temporary: URL
    /// Bytes written so far.
    public private(set) var bytesWritten: Int64 = 0
    private var handle: FileHandle?
    private var finished = false

    /// Creates the temporary file beside `destination`.
    ///
    /// - Parameter overwrite: Whether an existing file at `destination` may be replaced; when
    ///   `false` and one exists, throws before creating anything.
    /// - Throws: ``CommandFailure`` (`output_failed`, exit 1) when the directory cannot be written,
    ///   or `ValidationError` (exit 64) when the destination exists and may not be replaced.
    public init(destination: URL, overwrite: Bool = true) throws {
        self.destination = destination
        if !overwrite { try Self.refuseExisting(destination) }
        let directory = destination.deletingLastPathComponent()
        temporary = directory.appending(
            path: ".\(destination.lastPathComponent).partial-\(UUID().uuidString.prefix(8))"
        )
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary.path)
        else {
            throw Self.failure(
                "Cannot create a file in \(directory.path)",
                hint: "Check that the directory exists and is writable."
            )
        }
        self.handle = handle
    }

    deinit {
        if !finished { discard() }
    }

    /// Throws a usage error (exit 64) when a file already exists at `destination`, for a command
    /// that checks before doing any work.
    public static func refuseExisting(_ destination: URL) throws {
        guard FileManager.default.fileExists(atPath: destination.path) else { return }
        throw ValidationError(
            "\(destination.path) already exists: pass --force to replace it, or choose another --output."
        )
    }

    /// Appends `data` to the temporary file.
    public func write(_ data: Data) throws {
        guard let handle else { throw Self.failure("\(temporary.path) is already closed", hint: nil) }
        do {
            try handle.write(contentsOf: data)
            bytesWritten += Int64(data.count)
        } catch {
            discard()
            throw Self.failure("Cannot write \(destination.path): \(error.localizedDescription)", hint: nil)
        }
    }

    /// Flushes the temporary file to disk and renames it to ``destination``, replacing any file
    /// there.
    public func commit() throws {
        guard let handle else { throw Self.failure("\(temporary.path) is already closed", hint: nil) }
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            discard()
            throw Self.failure("Cannot write \(destination.path): \(error.localizedDescription)", hint: nil)
        }
        self.handle = nil
        do {
            try Self.move(temporary, over: destination)
        } catch {
            discard()
            throw error
        }
        finished = true
    }

    /// Renames the finished file `file` over `destination` in one step, replacing any file there,
    /// for a file written by other means (a streamed download) beside its destination.
    ///
    /// - Throws: ``CommandFailure`` (`output_failed`, exit 1) when the rename fails; `file` is
    ///   left where it is.
    public static func move(_ file: URL, over destination: URL) throws {
        guard rename(file.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw failure("Cannot move the finished file to \(destination.path): \(reason)", hint: nil)
        }
    }

    /// Closes and removes the temporary file; the destination is left as it was.
    public func discard() {
        try? handle?.close()
        handle = nil
        try? FileManager.default.removeItem(at: temporary)
        finished = true
    }

    private static func failure(_ message: String, hint: String?) -> CommandFailure {
        CommandFailure(code: "output_failed", message: message + ".", hint: hint, exitCode: ExitPolicy.outputFailed)
    }
}
