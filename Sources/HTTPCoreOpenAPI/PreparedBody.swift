import Foundation
import HTTPCore
import OpenAPIRuntime

/// A generated client's request body made ready for HTTPCore: in memory when it is small, else
/// in a private temporary file that HTTPCore's upload path streams.
///
/// HTTPCore's transports send a body from memory or from a file, and retry by sending it again;
/// a body of unknown length is read as it comes and moved to a file once it outgrows the limit,
/// so memory stays bounded whatever its size.
struct PreparedBody: Sendable {
    /// The body to send from memory.
    private(set) var data: Data?
    /// The file to stream the body from.
    private(set) var file: URL?
    /// The file's size, for `Content-Length`.
    private(set) var fileLength: Int64?
    /// Whether the generated client's body could be read only once, so the call is not retried.
    private(set) var isSingleUse = false

    /// Reads `body`, keeping up to `limit` bytes in memory.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` when the body cannot be read or spooled; nothing
    ///   was sent.
    init(_ body: HTTPBody?, bufferingUpTo limit: Int) async throws {
        guard let body else { return }
        isSingleUse = body.iterationBehavior == .single
        do {
            if case .known(let length) = body.length, length <= limit {
                data = try await Data(collecting: body, upTo: limit)
                return
            }
            var buffer = Data()
            var spool: SpoolFile?
            for try await chunk in body {
                if let spool {
                    try spool.write(Data(chunk))
                    continue
                }
                buffer.append(contentsOf: chunk)
                guard buffer.count > limit else { continue }
                let opened = try SpoolFile()
                spool = opened
                file = opened.url
                try opened.write(buffer)
                buffer = Data()
            }
            if let spool {
                fileLength = spool.length
                spool.close()
            } else {
                data = buffer
            }
        } catch {
            discard()
            throw APIError.usage(
                APIError.Details(
                    message: "The request body could not be read: \(error)",
                    cause: SendableDescription(error)
                )
            )
        }
    }

    /// Removes the temporary file, if there is one.
    func discard() {
        if let file { try? FileManager.default.removeItem(at: file) }
    }
}
