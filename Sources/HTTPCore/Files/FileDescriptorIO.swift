import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The `write(2)` loop every writer in the package shares (files, devices, pipes and the standard
/// streams), and the `read(2)` loop a reader of a file's chunks needs.
package enum FileDescriptorIO {
    /// Writes every byte to `descriptor`, retrying after signals and waiting while a
    /// non-blocking descriptor is full; returns the `errno` of a failure, `nil` on success.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, base + offset, bytes.count - offset)
            if count >= 0 {
                offset += count
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, -1)
            case let code:
                return code
            }
        }
        return nil
    }

    /// Writes all of `data`, as the buffer form does.
    package static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    /// Reads from `descriptor` until `bytes` is full or the file ends, retrying after signals,
    /// and returns how many bytes were read.
    ///
    /// - Throws: `POSIXError` with the `errno` of a failure.
    package static func readFull(_ bytes: UnsafeMutableRawBufferPointer, from descriptor: Int32) throws -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset < bytes.count {
            let count = read(descriptor, base + offset, bytes.count - offset)
            if count > 0 {
                offset += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
        return offset
    }

    /// Closes `descriptor`, under a name that does not clash with the types' own `close()`.
    @discardableResult
    package static func close(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(descriptor)
        #elseif canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Musl.close(descriptor)
        #endif
    }
}
