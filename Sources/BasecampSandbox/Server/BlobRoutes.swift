import APISandbox
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Downloads as Basecamp serves them: a `download_url` names the storage host, the same path on the API
/// (credentials required) redirects to a signed URL on the storage host, which refuses credentials, serves
/// `Range` requests and validates them with the blob's ETag. A signed URL is short-lived, so a client that
/// keeps one to resume with later meets the `403` it would meet at Basecamp.
@available(macOS 14, iOS 17, tvOS 17, *)
enum BlobRoutes {
    /// The path of a `download_url`, below the base path, on either origin.
    static let downloadPath = "/{accountId}/blobs/{sgid}/download/{filename}"
    /// How long a signed storage URL works after the API hands it out.
    static let signedURLLifetime: TimeInterval = 5 * 60

    /// The query of a signed URL for `blob`: when it expires (seconds since 1970) and a
    /// signature over the blob and that time, keyed by the blob's secret storage key.
    static func signedQuery(for blob: AttachmentRecord, now: Date) -> String {
        let expires = Int((now.timeIntervalSince1970 + signedURLLifetime).rounded(.up))
        return "expires=\(expires)&signature=" + signature(of: blob, expires: expires)
    }

    /// HMAC-SHA256 of the blob and the expiry, keyed by the blob's storage key, in hex.
    fileprivate static func signature(of blob: AttachmentRecord, expires: Int) -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Data("\(blob.sgid) \(expires)".utf8),
            using: SymmetricKey(data: Data(blob.storageKey.utf8))
        )
        return code.map { String(format: "%02x", $0) }.joined()
    }
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension BasecampServer {
    /// Where the storage host listens, once the sandbox runs.
    var storageOrigin: String? { sandboxState.secondOrigin?.absoluteString }

    /// The API's answer to a `download_url` moved onto it: a `302` to the blob's signed URL on the storage host.
    func redirectToStorage(_ request: Request, _ context: SandboxRequestContext, requestID: String) throws -> Response {
        let data = store.snapshot()
        guard context.parameters.get("p0") == String(data.accountID),
            let blob = context.parameters.get("p1").flatMap(data.attachment)
        else { throw APIFailure.notFound("File") }
        let origin = storageOrigin ?? AuthorizationRoutes.origin(request)
        let query = BlobRoutes.signedQuery(for: blob, now: timeSource.now())
        let location = origin + basePath + "/_storage/" + blob.sgid + "?" + query
        return Response(status: .found, headers: [.location: location, .xRequestID: requestID])
    }

    /// The storage host's routes: signed blob URLs, and the `download_url`s themselves, which
    /// storage does not serve without a signature (a client must ask the API for one).
    func registerStorage(on router: Router<SandboxRequestContext>) {
        let storage = router.group(RouterPath(basePath))
        storage.get("_storage/{sgid}") { request, context in
            self.storage(request) { requestID throws(APIFailure) in
                try self.serveBlob(context.parameters.get("sgid"), request, requestID: requestID)
            }
        }
        storage.get(SandboxResponse.routerPath(BlobRoutes.downloadPath)) { request, _ in
            self.storage(request) { _ throws(APIFailure) in
                throw APIFailure(403, "Storage serves signed URLs only: fetch the download_url through the API.")
            }
        }
    }

    /// What `answer` makes of a storage request, or the failure it throws. Storage authorises by
    /// the URL's signature alone and, as S3 does, refuses a request that also carries
    /// credentials, so a client that leaks its token there fails here too.
    private func storage(_ request: Request, _ answer: (String) throws(APIFailure) -> Response) -> Response {
        let requestID = nextRequestID()
        do throws(APIFailure) {
            guard request.headers[.authorization] == nil, request.headers[.cookie] == nil else {
                throw APIFailure(400, "Only one auth mechanism allowed: storage URLs are signed; send no credentials.")
            }
            return try answer(requestID)
        } catch {
            return Self.failure(error, requestID: requestID)
        }
    }

    /// The storage host's answer for the blob `sgid`: its bytes (or the range asked for) from
    /// ``files`` when the URL is signed for it and has not expired.
    ///
    /// - Throws: ``APIFailure`` `403` when the URL is not signed for the blob or has expired, `404`
    ///   when there is no such blob.
    private func serveBlob(_ sgid: String?, _ request: Request, requestID: String) throws(APIFailure) -> Response {
        guard let blob = sgid.flatMap(store.snapshot().attachment) else { throw APIFailure.notFound("File") }
        let query = QueryItems(request.uri.query)
        let given = query.first("signature") ?? ""
        guard let expires = query.int("expires"),
            // Digests compare in constant time, so the signature cannot be guessed byte by byte.
            SHA256.hash(data: Data(given.utf8))
                == SHA256.hash(data: Data(BlobRoutes.signature(of: blob, expires: expires).utf8))
        else { throw APIFailure(403, "The storage signature is not valid.") }
        guard timeSource.now().timeIntervalSince1970 <= Double(expires) else {
            throw APIFailure(403, "The storage URL has expired: ask the API for the download_url again.")
        }
        var fields = HTTPFields()
        fields[.contentType] = blob.contentType
        fields[.contentDisposition] =
            "attachment; filename=\"\(blob.filename.replacingOccurrences(of: "\"", with: ""))\""
        fields[.xRequestID] = requestID
        let file = blob.file.map { StoredFileResponse.Bytes.file(files.url($0), byteCount: blob.size) }
        return StoredFileResponse.make(
            file ?? .data(blob.data),
            etag: "\"\(blob.sgid)\"",
            headers: fields,
            request: request
        )
    }
}
