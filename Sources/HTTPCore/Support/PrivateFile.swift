import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes files that may hold secrets (credentials, tokens, a sandbox's saved sign-ins) so that
/// nobody but their owner can ever read them.
package enum PrivateFile {
    /// Why a write failed: the step and the system's reason, e.g.
    /// `creating a temporary file: Permission denied`.
    package struct WriteError: Error, CustomStringConvertible {
        /// The step and the system's reason.
        package var description: String
    }

    /// Writes `data` to `url` atomically with permissions 0600.
    ///
    /// The data goes to a temporary file created beside `url` with `O_EXCL` and mode 0600, is
    /// flushed to disk and renamed over the old file, so a crash leaves the old or the new
    /// content whole, and the content is never readable by others, not even for a moment.
    ///
    /// - Throws: ``WriteError`` naming the step that failed; the old file is left as it was.
    package static func save(_ data: Data, to url: URL) throws(WriteError) {
        let temporary = url.deletingLastPathComponent()
            .appending(path: ".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw failure("creating a temporary file") }
        var written = 0
        let complete = data.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            while written < buffer.count {
                let count = write(descriptor, base + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += count
            }
            return true
        }
        var reason: WriteError?
        if !complete {
            reason = failure("writing")
        } else if fsync(descriptor) != 0 {
            reason = failure("flushing")
        }
        close(descriptor)
        if let reason {
            unlink(temporary)
            throw reason
        }
        guard rename(temporary, url.path) == 0 else {
            let reason = failure("replacing the file")
            unlink(temporary)
            throw reason
        }
    }

    /// `step` with the current `errno`'s text.
    private static func failure(_ step: String) -> WriteError {
        WriteError(description: "\(step): \(String(cString: strerror(errno)))")
    }
}
