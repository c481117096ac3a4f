import Foundation
import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A private temporary file (mode 0600, created new) that a body is written to once, in order.
final class SpoolFile {
    /// Where the file is.
    let url: URL
    /// Bytes written so far.
    private(set) var length: Int64 = 0
    private var descriptor: Int32

    /// Creates a new, empty file in the temporary folder.
    ///
    /// - Throws: `POSIXError` when it cannot be created.
    init() throws {
        url = Self.temporaryURL()
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close() }

    /// A new name in the temporary folder for a body spooled to disk, request or response.
    static func temporaryURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("httpcore-openapi-\(UUID().uuidString).body")
    }

    /// Appends `data`.
    ///
    /// - Throws: `POSIXError` when it cannot be written.
    func write(_ data: Data) throws {
        if let failure = FileDescriptorIO.writeAll(data, to: descriptor) {
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
        length += Int64(data.count)
    }

    /// Closes the file; it stays where it is.
    func close() {
        guard descriptor >= 0 else { return }
        _ = FileDescriptorIO.close(descriptor)
        descriptor = -1
    }
}
