public import Foundation
public import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How far a transfer has got.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes done so far, including any resumed from an earlier attempt.
    public var completed: Int64
    /// The whole size, when the server announced it.
    public var total: Int64?

    /// Creates a progress value.
    public init(completed: Int64, total: Int64?) {
        self.completed = completed
        self.total = total
    }
}

/// Where a streamed download's successful body goes: a partial file that a later attempt (or a
/// later run) can resume.
///
/// A transport calls ``begin(_:)`` with a 2xx head, ``write(_:)`` for each part of the body and
/// ``close()`` when the attempt ends, however it ends. The sink keeps the partial file's
/// validator (a strong `ETag`, else `Last-Modified`) in a small file next to it, so a resumed
/// request can ask for the rest with `Range` and `If-Range`: a server whose file changed then
/// answers with the whole new file instead of a mismatched tail.
public final class DownloadSink: Sendable {
    /// The file the body is written to until the download completes.
    public let partialFile: URL
    /// Where the partial file's validator is kept between runs.
    public var validatorFile: URL { partialFile.appendingPathExtension("validator") }

    private let progress: (@Sendable (TransferProgress) -> Void)?
    private let state: Locked<State>

    private struct State: Sendable {
        var handle: FileHandle?
        /// Bytes in the partial file.
        var onDisk: Int64 = 0
        var validator: String?
        var total: Int64?
        /// Where the current attempt started writing.
        var resumedFrom: Int64 = 0
    }

    /// Creates a sink writing to `partialFile`; with `resume`, an existing partial file with a
    /// known validator is continued rather than started over.
    public init(
        partialFile: URL,
        resume: Bool,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.partialFile = partialFile
        self.progress = progress
        var initial = State()
        let validatorFile = partialFile.appendingPathExtension("validator")
        if resume,
            let size = Self.size(of: partialFile), size > 0,
            let saved = try? String(contentsOf: validatorFile, encoding: .utf8), !saved.isEmpty
        {
            initial.onDisk = size
            initial.validator = saved
        }
        self.state = Locked(initial)
    }

    /// Bytes already in the partial file.
    public var bytesOnDisk: Int64 { state.withLock { $0.onDisk } }

    /// Where the last attempt started writing: nonzero when it resumed.
    public var resumedFrom: Int64 { state.withLock { $0.resumedFrom } }

    /// Adds `Range` and `If-Range` to `request` when there is a partial file to continue, and
    /// removes them otherwise.
    public func prepare(_ request: inout HTTPRequest) {
        let (offset, validator) = state.withLock { ($0.onDisk, $0.validator) }
        if offset > 0, let validator {
            request.headerFields[.range] = "bytes=\(offset)-"
            request.headerFields[.ifRange] = validator
        } else {
            request.headerFields[.range] = nil
            request.headerFields[.ifRange] = nil
        }
    }

    /// Forgets the partial file, so the next attempt starts from the first byte.
    public func discard() {
        state.withLock { state in
            try? state.handle?.close()
            state = State()
        }
        try? FileManager.default.removeItem(at: partialFile)
        try? FileManager.default.removeItem(at: validatorFile)
    }

    /// Opens the partial file for a successful response: appends after the bytes on disk for a
    /// `206` that continues them, starts over for anything else.
    ///
    /// - Throws: ``TransportError`` for a `206` that does not start where the file ends, or a
    ///   file that cannot be written.
    public func begin(_ response: HTTPResponse) throws {
        let fields = response.headerFields
        let validator = Self.validator(of: fields)
        try state.withLock { state in
            try? state.handle?.close()
            state.handle = nil
            var start: Int64 = 0
            if response.status.code == 206 {
                guard let range = fields[.contentRange].flatMap(ContentRange.init), range.start == state.onDisk
                else {
                    throw TransportError(
                        .invalidResponse,
                        requestMayHaveBeenSent: true,
                        message: "The server sent a part of the file that does not continue the partial download."
                    )
                }
                start = range.start
                state.total = range.total
            } else {
                state.total = fields[.contentLength].flatMap { Int64($0) }
            }
            do {
                if !FileManager.default.fileExists(atPath: partialFile.path),
                    !FileManager.default.createFile(atPath: partialFile.path, contents: nil)
                {
                    throw CocoaError(.fileWriteUnknown)
                }
                let handle = try FileHandle(forWritingTo: partialFile)
                try handle.truncate(atOffset: UInt64(start))
                try handle.seekToEnd()
                state.handle = handle
                if start == 0 {
                    try? FileManager.default.removeItem(at: validatorFile)
                    if let validator { try Data(validator.utf8).write(to: validatorFile) }
                }
            } catch {
                throw Self.fileError(error, partialFile)
            }
            state.onDisk = start
            state.resumedFrom = start
            state.validator = start == 0 ? validator : state.validator
        }
        report()
    }

    /// Appends a part of the body.
    public func write(_ bytes: Data) throws {
        try state.withLock { state in
            guard let handle = state.handle else { return }
            do {
                try handle.write(contentsOf: bytes)
            } catch {
                throw Self.fileError(error, partialFile)
            }
            state.onDisk += Int64(bytes.count)
        }
        report()
    }

    /// Closes the partial file; call it whenever an attempt ends.
    public func close() {
        state.withLock { state in
            try? state.handle?.close()
            state.handle = nil
        }
    }

    /// Moves the completed file to `destination`, replacing what is there, and removes the
    /// validator.
    ///
    /// - Throws: ``APIError/usage(_:)`` when the file cannot be moved.
    public func complete(to destination: URL) throws {
        close()
        // rename(2) replaces an existing file in one step, so the destination is never missing
        // or half written.
        guard rename(partialFile.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw APIError.usage("Could not save the download to \(destination.path): \(reason).")
        }
        try? FileManager.default.removeItem(at: validatorFile)
    }

    private func report() {
        guard let progress else { return }
        let value = state.withLock { TransferProgress(completed: $0.onDisk, total: $0.total) }
        progress(value)
    }

    /// A validator usable in `If-Range`: a strong ETag, else `Last-Modified` (RFC 9110 §13.1.5).
    static func validator(of fields: HTTPFields) -> String? {
        if let etag = fields[.eTag], !etag.hasPrefix("W/") { return etag }
        return fields[.lastModified]
    }

    static func size(of file: URL) -> Int64? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        return (attributes?[.size] as? NSNumber)?.int64Value
    }

    private static func fileError(_ error: any Error, _ file: URL) -> TransportError {
        TransportError(
            .other,
            requestMayHaveBeenSent: true,
            message: "Could not write the download to \(file.path): \(error.localizedDescription)"
        )
    }
}

/// A `Content-Range: bytes first-last/total` value.
struct ContentRange: Sendable, Hashable {
    var start: Int64
    var end: Int64
    /// `nil` for an unknown length (`*`).
    var total: Int64?

    init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count)
        let halves = spec.split(separator: "/", maxSplits: 1)
        guard halves.count == 2 else { return nil }
        let bounds = halves[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start <= end else {
            return nil
        }
        self.start = start
        self.end = end
        self.total = halves[1] == "*" ? nil : Int64(halves[1])
        if halves[1] != "*" && total == nil { return nil }
    }
}
