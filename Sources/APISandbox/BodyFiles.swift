public import Foundation
import HTTPCore
public import Hummingbird

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a sandbox keeps uploaded files: each request body is streamed to a file of its own as it
/// arrives, so an upload of gigabytes costs the sandbox a chunk of memory, not its size.
///
/// ```swift
/// let files = BodyFiles(directory: stateFile.appendingPathExtension("files"))
/// let stored = try await files.receive(request.body, declaredLength: request.headers[.contentLength])
/// ```
public struct BodyFiles: Sendable {
    /// The folder the files are kept in; created on the first upload.
    public let directory: URL
    /// The largest body taken; a larger one is refused with ``BodyFilesError/tooLarge(maximumBytes:)``.
    public var maximumBytes: Int64

    /// The cap unless one is set: 5 GiB, well above the largest file a user is likely to attach.
    public static let defaultMaximumBytes: Int64 = 5 << 30

    /// Files kept in `directory`, each at most `maximumBytes`.
    public init(directory: URL, maximumBytes: Int64 = defaultMaximumBytes) {
        self.directory = directory
        self.maximumBytes = maximumBytes
    }

    /// Files kept in a new folder under the system's temporary directory, for a sandbox without a
    /// state file; remove it with ``removeAll()`` when the sandbox stops.
    public static func temporary(maximumBytes: Int64 = defaultMaximumBytes) -> BodyFiles {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sandbox-files-\(UUID().uuidString)")
        return BodyFiles(directory: folder, maximumBytes: maximumBytes)
    }

    /// What ``receive(_:declaredLength:)`` kept.
    public struct Stored: Sendable, Hashable {
        /// The file's name in ``BodyFiles/directory``.
        public var name: String
        /// How many bytes it holds.
        public var byteCount: Int64
    }

    /// Streams `body` to a new file, a chunk at a time, and returns its name and size. A body
    /// declared or found to be over ``maximumBytes`` is refused before more of it is kept, and
    /// its partial file removed.
    ///
    /// - Parameters:
    ///   - body: The request's body.
    ///   - declaredLength: Its `Content-Length`, when sent, so an oversized body is refused
    ///     before it is read.
    /// - Throws: ``BodyFilesError``.
    public func receive(_ body: RequestBody, declaredLength: String?) async throws -> Stored {
        if let declared = declaredLength.flatMap({ Int64($0) }), declared > maximumBytes {
            throw BodyFilesError.tooLarge(maximumBytes: maximumBytes)
        }
        let name = UUID().uuidString
        var descriptor: Int32? = try makeFile(name)
        var count: Int64 = 0
        do {
            for try await chunk in body {
                count += Int64(chunk.readableBytes)
                guard count <= maximumBytes else { throw BodyFilesError.tooLarge(maximumBytes: maximumBytes) }
                let failed = chunk.withUnsafeReadableBytes { bytes in
                    descriptor.flatMap { FileDescriptorIO.writeAll(bytes, to: $0) }
                }
                if let failed { throw unwritable(failed) }
            }
            let closing = descriptor.map(FileDescriptorIO.close)
            descriptor = nil
            if closing != 0 { throw unwritable(errno) }
        } catch {
            if let descriptor { FileDescriptorIO.close(descriptor) }
            remove(name)
            throw error
        }
        return Stored(name: name, byteCount: count)
    }

    /// Where the file `name` is.
    public func url(_ name: String) -> URL {
        directory.appending(path: name)
    }

    /// Deletes the file `name`, if it is there.
    public func remove(_ name: String) {
        try? FileManager.default.removeItem(at: url(name))
    }

    /// Deletes the folder and every file in it.
    public func removeAll() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func makeFile(_ name: String) throws -> Int32 {
        do {
            try PrivateFile.createFolder(directory)
        } catch {
            throw BodyFilesError.unwritable(directory.path, error.localizedDescription)
        }
        let descriptor = open(url(name).path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw unwritable(errno) }
        return descriptor
    }

    private func unwritable(_ code: Int32) -> BodyFilesError {
        .unwritable(directory.path, String(cString: strerror(code)))
    }
}

/// Why ``BodyFiles`` did not keep a body.
public enum BodyFilesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is over the cap, in bytes.
    case tooLarge(maximumBytes: Int64)
    /// The folder (its path) cannot be written, and why.
    case unwritable(String, String)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .tooLarge(let maximum):
            return "The file is larger than this server takes (\(maximum) bytes)."
        case .unwritable(let path, let reason):
            return "The upload could not be kept in \(path): \(reason)."
        }
    }
}
