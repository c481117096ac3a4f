import APISandbox
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Downloads as Basecamp serves them: a `download_url` on the API (credentials required)
/// redirects to a signed storage URL, which needs no credentials, serves `Range` requests and
/// validates them with the blob's ETag.
@available(macOS 14, iOS 17, tvOS 17, *)
enum BlobRoutes {
    /// The storage host's answer: the blob's bytes (or the range asked for) from `files` when
    /// the URL's signature is the blob's, `403` when it is not, `404` when there is no such blob.
    static func serve(_ blob: AttachmentRecord?, _ files: BodyFiles, request: Request, requestID: String) -> Response {
        let signature = QueryItems(request.uri.query).first("signature") ?? ""
        guard let blob else { return BasecampServer.failure(APIFailure.notFound("File"), requestID: requestID) }
        // Digests compare in constant time, so the signature cannot be guessed byte by byte.
        guard SHA256.hash(data: Data(signature.utf8)) == SHA256.hash(data: Data(blob.storageKey.utf8)) else {
            return BasecampServer.failure(APIFailure(403, "The storage signature is not valid."), requestID: requestID)
        }
        var fields = HTTPFields()
        fields[.contentType] = blob.contentType
        fields[.contentDisposition] =
            "attachment; filename=\"\(blob.filename.replacingOccurrences(of: "\"", with: ""))\""
        fields[.xRequestID] = requestID
        let file = blob.file.map { StoredFileResponse.Bytes.file(files.url($0), byteCount: blob.size) }
        let bytes = file ?? .data(blob.data)
        return StoredFileResponse.make(bytes, etag: "\"\(blob.sgid)\"", headers: fields, request: request)
    }
}
