public import Foundation
public import HTTPTypes

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

/// Where a streamed download's successful body goes: its ``destination``, through a partial
/// file that a later attempt (or a later run) can resume when the destination is a file, or
/// straight into a stream (a device, a FIFO, standard output).
///
/// A transport calls ``begin(_:)`` with a 2xx head, ``write(_:)`` for each part of the body and
/// ``close()`` when the attempt ends, however it ends. For a file, the sink keeps the partial
/// file's validator (a strong `ETag`, else `Last-Modified`) and the resource it came from (the
/// URL's path; the query may carry an expiring signature) in a small file next to it, so a
/// resumed request for the same resource can ask for the rest with `Range` and `If-Range`: a
/// server whose file changed then answers with the whole new file instead of a mismatched tail,
/// and a part carrying another validator than the partial file's is refused. A stream is resumed
/// the same way within one call, from what it has already taken. Downloads ask for the file as it
/// is (`Accept-Encoding: identity`), since a range of a compressed answer counts compressed bytes.
public final class DownloadSink: Sendable {
    /// Where the download ends up.
    public let destination: FileDestination
    /// The file the body is written to until the download completes; the destination itself for
    /// a stream.
    public var partialFile: URL { writer.stagingFile ?? destination.target }
    /// Where the partial file's validator is kept between runs.
    public var validatorFile: URL { partialFile.appendingPathExtension("validator") }

    private let writer: FileWriter
    /// Whether a later run may resume from the partial file, so its validator is kept beside it.
    private let keepsValidatorFile: Bool
    private let progress: (@Sendable (TransferProgress) -> Void)?
    private let state: Locked<State>

    private struct State: Sendable {
        /// Whether a successful head has opened the current attempt.
        var writing = false
        /// Whether any attempt has begun.
        var begun = false
        /// Bytes in the partial file or the stream.
        var onDisk: Int64 = 0
        var validator: String?
        /// The resource the partial file holds a part of.
        var resource: String?
        /// The resource the current attempt asks for.
        var requested: String?
        var total: Int64?
        /// The whole file's size a `206` announced, in the bytes it sends (no content coding).
        var rangeTotal: Int64?
        /// Where the current attempt started writing.
        var resumedFrom: Int64 = 0
    }

    /// Creates a sink writing to `destination`; with `resume`, an existing partial file with a
    /// known validator is continued rather than started over. A stream is opened now.
    ///
    /// - Throws: ``FileWriteError`` when a stream cannot be opened.
    public convenience init(
        destination: FileDestination,
        resume: Bool,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) throws(FileWriteError) {
        try self.init(destination: destination, resume: resume, permissions: .standard, progress: progress)
    }

    /// As the public initialiser, with `permissions` for the partial file: `.ownerOnly` for a body
    /// kept privately, which also keeps no validator file for a later run to resume from.
    package init(
        destination: FileDestination,
        resume: Bool,
        permissions: FileWriter.Permissions,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) throws(FileWriteError) {
        self.destination = destination
        self.progress = progress
        keepsValidatorFile = permissions == .standard
        writer = try FileWriter(to: destination, staging: .partial, permissions: permissions)
        var initial = State()
        if resume, let partial = writer.stagingFile,
            let size = Self.size(of: partial), size > 0,
            let saved = try? String(contentsOf: partial.appendingPathExtension("validator"), encoding: .utf8)
        {
            // The validator, then the resource, which a file from an earlier version lacks.
            let lines = saved.split(separator: "\n", maxSplits: 1).map(String.init)
            if let validator = lines.first {
                initial.onDisk = size
                initial.validator = validator
                initial.resource = lines.dropFirst().first
            }
        }
        self.state = Locked(initial)
    }

    /// Bytes already in the partial file, or written to the stream.
    public var bytesOnDisk: Int64 { state.withLock { $0.onDisk } }

    /// Where the last attempt started writing: nonzero when it resumed.
    public var resumedFrom: Int64 { state.withLock { $0.resumedFrom } }

    /// Whether the attempt that began ended short of the size its answer announced: a server may
    /// answer a `Range` with less than was asked for (RFC 9110 §15.3.7), and the rest must be
    /// asked for again before the file is complete.
    var isShort: Bool {
        state.withLock { state in !state.writing && state.rangeTotal.map { state.onDisk < $0 } ?? false }
    }

    /// Adds `Range` and `If-Range` to `request` when there is a partial file of the same
    /// resource to continue, and removes them otherwise; asks for the file without a content
    /// coding.
    public func prepare(_ request: inout HTTPRequest) {
        let resource = Self.resource(of: request)
        let (offset, validator) = state.withLock { state in
            state.requested = resource
            let sameResource = state.resource.map { $0 == resource } ?? true
            return (state.onDisk, sameResource ? state.validator : nil)
        }
        request.headerFields[.acceptEncoding] = "identity"
        if offset > 0, let validator {
            request.headerFields[.range] = "bytes=\(offset)-"
            request.headerFields[.ifRange] = validator
        } else {
            request.headerFields[.range] = nil
            request.headerFields[.ifRange] = nil
        }
    }

    /// Forgets the partial file, so the next attempt starts from the first byte (a stream that
    /// took bytes already cannot, and that attempt fails).
    public func discard() {
        state.withLock { state in
            state.validator = nil
            if !destination.isStream { state.onDisk = 0 }
        }
        guard !destination.isStream else { return }
        writer.closeStaging()
        try? FileManager.default.removeItem(at: partialFile)
        try? FileManager.default.removeItem(at: validatorFile)
    }

    /// Opens the partial file for a successful response: appends after the bytes on disk for a
    /// `206` that continues them, starts over for anything else.
    ///
    /// - Throws: ``TransportError`` for a `206` that does not start where the file ends;
    ///   ``FileWriteError`` for a file that cannot be written, or a stream that already took
    ///   part of the body and is sent all of it again.
    public func begin(_ response: HTTPResponse) throws {
        let fields = response.headerFields
        let validator = Self.validator(of: fields)
        // A range of a compressed answer counts compressed bytes, not the ones written here.
        let isIdentityCoded = (fields[.contentEncoding]?.lowercased() ?? "identity") == "identity"
        var start: Int64 = 0
        var total = fields[.contentLength].flatMap { Int64($0) }
        var rangeTotal: Int64?
        if response.status.code == 206 {
            let onDisk = state.withLock { $0.onDisk }
            guard let range = fields[.contentRange].flatMap(ContentRange.init), range.start == onDisk else {
                throw TransportError(
                    .invalidResponse,
                    requestMayHaveBeenSent: true,
                    message: "The server sent a part of the file that does not continue the partial download."
                )
            }
            if Self.contradicts(fields, state.withLock { $0.validator }) {
                discard()
                throw TransportError(
                    .invalidResponse,
                    requestMayHaveBeenSent: true,
                    message: "The server sent a part of another version of the file; the partial download was "
                        + "discarded, so the next attempt starts over."
                )
            }
            start = range.start
            total = range.total
            if isIdentityCoded { rangeTotal = range.total }
        }
        let resumable = isIdentityCoded ? validator : nil
        let resource = state.withLock { $0.requested }
        try writer.reposition(to: start)
        if start == 0, !destination.isStream, keepsValidatorFile {
            try? FileManager.default.removeItem(at: validatorFile)
            // Without its validator a partial file is only started over, never resumed wrongly.
            if let resumable, let resource { try? Data("\(resumable)\n\(resource)".utf8).write(to: validatorFile) }
        }
        state.withLock { state in
            state.writing = true
            state.begun = true
            state.total = total
            state.rangeTotal = rangeTotal
            state.onDisk = start
            state.resumedFrom = start
            if start == 0 {
                state.validator = resumable
                state.resource = resource
            }
        }
        report()
    }

    /// Appends a part of the body.
    ///
    /// - Throws: ``FileWriteError`` when it cannot be written.
    public func write(_ bytes: Data) throws {
        guard state.withLock({ $0.writing }) else { return }
        try writer.write(bytes)
        state.withLock { $0.onDisk += Int64(bytes.count) }
        report()
    }

    /// Ends an attempt, however it ended; call it whenever one does.
    public func close() {
        state.withLock { $0.writing = false }
        writer.closeStaging()
    }

    /// Puts the completed download at ``destination`` (replacing a file there only when the
    /// destination allows it) and removes the validator.
    ///
    /// - Throws: ``FileWriteError`` when it cannot be put there; the partial file is kept.
    public func complete() throws {
        close()
        // A 2xx with no body (a 204) never began: an empty file.
        if !state.withLock({ $0.begun }) { try writer.reposition(to: 0) }
        try writer.commit()
        if !destination.isStream { try? FileManager.default.removeItem(at: validatorFile) }
    }

    private func report() {
        guard let progress else { return }
        let value = state.withLock { TransferProgress(completed: $0.onDisk, total: $0.total) }
        progress(value)
    }

    /// A validator usable in `If-Range` (RFC 9110 §13.1.5): a strong ETag, else a `Last-Modified`
    /// that is strong, at least a second before the answer's `Date` (§8.8.2.2), since a file
    /// changed within the same second would keep the date and let a mismatched tail be appended.
    static func validator(of fields: HTTPFields) -> String? {
        if let etag = fields[.eTag], !etag.hasPrefix("W/") { return etag }
        guard let text = fields[.lastModified], let modified = HTTPDate.parse(text),
            let date = fields[.date].flatMap(HTTPDate.parse), date.timeIntervalSince(modified) >= 1
        else { return nil }
        return text
    }

    /// Whether a `206`'s own validator says it is a part of another version than the partial
    /// file's `stored` one, because the server ignored `If-Range`.
    static func contradicts(_ fields: HTTPFields, _ stored: String?) -> Bool {
        guard let stored else { return false }
        let sent = stored.hasPrefix("\"") ? fields[.eTag] : fields[.lastModified]
        return sent.map { $0 != stored } ?? false
    }

    /// What a partial file is a part of: the request's path. Not its query, which for a signed
    /// storage link changes with every signature while the file stays the same, nor its host,
    /// which a storage service may vary between mirrors (and a local sandbox between runs).
    static func resource(of request: HTTPRequest) -> String? {
        request.path.map { String($0.prefix { $0 != "?" }) }
    }

    static func size(of file: URL) -> Int64? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        return (attributes?[.size] as? NSNumber)?.int64Value
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
