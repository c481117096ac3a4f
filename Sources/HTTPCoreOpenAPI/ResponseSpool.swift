import Foundation
import HTTPCore
import OpenAPIRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a streamed response's successful body goes as it arrives: a private temporary file
/// written by HTTPCore's download sink (which resumes it when a retry continues the body), read
/// back by the generated client as a stream.
final class ResponseSpool: Sendable {
    /// The file the completed body is in.
    let url: URL
    /// The sink HTTPCore's transport writes the body to.
    let sink: DownloadSink

    /// Creates a spool in the temporary folder.
    ///
    /// - Throws: ``HTTPCore/FileWriteError`` when the temporary folder cannot be written.
    init() throws {
        url = SpoolFile.temporaryURL()
        // Readable by this user only, as the request side's spool file is: the body may be private.
        sink = try DownloadSink(destination: FileDestination(url), resume: false, permissions: .ownerOnly)
    }

    /// The body to hand the generated client for `exchange`: the file's bytes for a 2xx answer
    /// (the file is unlinked once open, so it goes away with its reader), the collected bytes
    /// for any other.
    ///
    /// - Throws: ``HTTPCore/FileWriteError`` or `POSIXError` when the file cannot be completed
    ///   or opened.
    func body(for exchange: Exchange) throws -> HTTPBody? {
        guard (200..<300).contains(exchange.response.status.code) else {
            // An earlier attempt may have left part of a 2xx body before this answer came.
            discard()
            return exchange.body.isEmpty ? nil : HTTPBody(exchange.body)
        }
        try sink.complete()
        let reader = try FileChunks.Reader(url)
        try? FileManager.default.removeItem(at: url)
        guard reader.length > 0 else { return nil }
        return HTTPBody(FileChunks(reader: reader), length: .known(reader.length), iterationBehavior: .single)
    }

    /// Removes whatever the spool left on disk.
    func discard() {
        sink.discard()
        try? FileManager.default.removeItem(at: url)
    }
}

/// A file's bytes in chunks, read as they are asked for.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    /// An open file; closed when the last reference goes.
    final class Reader: Sendable {
        let length: Int64
        private let descriptor: Int32

        init(_ url: URL) throws {
            descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            var status = stat()
            length = fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
        }

        deinit { FileDescriptorIO.close(descriptor) }

        /// The next chunk of at most `size` bytes; empty at the end.
        func read(upTo size: Int) throws -> [UInt8] {
            var chunk = [UInt8](repeating: 0, count: size)
            let count = try chunk.withUnsafeMutableBytes { try FileDescriptorIO.readFull($0, from: descriptor) }
            chunk.removeSubrange(count...)
            return chunk
        }
    }

    let reader: Reader
    /// Large enough to amortise each read, small enough to keep memory flat.
    static let chunkSize = 64 * 1024

    func makeAsyncIterator() -> Iterator { Iterator(reader: reader) }

    /// Reads the next chunk on each call.
    struct Iterator: AsyncIteratorProtocol {
        let reader: Reader

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            let chunk = try reader.read(upTo: FileChunks.chunkSize)
            return chunk.isEmpty ? nil : chunk[...]
        }
    }
}
