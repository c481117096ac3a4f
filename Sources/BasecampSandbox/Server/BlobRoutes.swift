import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Downloads as Basecamp serves them: a `download_url` on the API (credentials required)
/// redirects to a signed storage URL, which needs no credentials, serves `Range` requests and
/// validates them with the blob's ETag.
@available(macOS 14, iOS 17, tvOS 17, *)
enum BlobRoutes {
    /// The storage host's answer: the blob's bytes (or the range asked for) when the URL's
    /// signature is the blob's, `403` when it is not, `404` when there is no such blob.
    static func serve(_ blob: AttachmentRecord?, request: Request, requestID: String) -> Response {
        let signature = QueryString.items(request.uri.query).first { $0.name == "signature" }?.value ?? ""
        guard let blob else { return BasecampServer.failure(APIFailure.notFound("File"), requestID: requestID) }
        // Digests compare in constant time, so the signature cannot be guessed byte by byte.
        guard SHA256.hash(data: Data(signature.utf8)) == SHA256.hash(data: Data(blob.storageKey.utf8)) else {
            return BasecampServer.failure(APIFailure(403, "The storage signature is not valid."), requestID: requestID)
        }
        let etag = "\"\(blob.sgid)\""
        var fields = HTTPFields()
        fields[.contentType] = blob.contentType
        fields[.contentDisposition] =
            "attachment; filename=\"\(blob.filename.replacingOccurrences(of: "\"", with: ""))\""
        fields[.eTag] = etag
        fields[.acceptRanges] = "bytes"
        fields[.xRequestID] = requestID
        let count = blob.data.count
        guard let range = request.headers[.range], request.headers[.ifRange].map({ $0 == etag }) ?? true else {
            return Response(status: .ok, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: blob.data)))
        }
        guard let bounds = byteRange(range, count: count) else {
            fields[.contentRange] = "bytes */\(count)"
            return Response(status: .rangeNotSatisfiable, headers: fields)
        }
        fields[.contentRange] = "bytes \(bounds.lowerBound)-\(bounds.upperBound - 1)/\(count)"
        let slice = blob.data[blob.data.startIndex + bounds.lowerBound..<blob.data.startIndex + bounds.upperBound]
        return Response(
            status: .partialContent,
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: slice))
        )
    }

    /// The bytes `bytes=first-last` (or `first-`, or `-suffix`) names in a body of `count`; nil
    /// when they are outside it.
    static func byteRange(_ value: String, count: Int) -> Range<Int>? {
        guard value.hasPrefix("bytes="), !value.contains(",") else { return nil }
        let spec = value.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        if spec[0].isEmpty {
            guard let suffix = Int(spec[1]), suffix > 0, count > 0 else { return nil }
            return max(0, count - suffix)..<count
        }
        guard let first = Int(spec[0]), first < count else { return nil }
        let last = spec[1].isEmpty ? count - 1 : min(Int(spec[1]) ?? -1, count - 1)
        guard last >= first else { return nil }
        return first..<(last + 1)
    }
}
