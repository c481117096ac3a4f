import APISandbox
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Downloads as Basecamp serves them: a `download_url` names the storage host, the same path
/// on the API (credentials required) redirects to a signed URL on the storage host, which
/// refuses credentials, serves `Range` requests and validates them with the blob's ETag.
@available(macOS 14, iOS 17, tvOS 17, *)
enum BlobRoutes {
    /// The path of a `download_url`, below the base path, on either origin.
    static let downloadPath = "/{accountId}/blobs/{sgid}/download/{filename}"

    /// Storage authorises by the URL's signature alone, and, as S3 does, refuses a request that
    /// also carries credentials, so a client that leaks its token there fails here too.
    static func refusingCredentials(_ request: Request, requestID: String) -> Response? {
        guard request.headers[.authorization] != nil || request.headers[.cookie] != nil else { return nil }
        return BasecampServer.failure(
            APIFailure(400, "Only one auth mechanism allowed: storage URLs are signed; send no credentials."),
            requestID: requestID
        )
    }

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

@available(macOS 14, iOS 17, tvOS 17, *)
extension BasecampServer {
    /// Where the storage host listens, once the sandbox runs.
    var storageOrigin: String? { sandboxState.secondOrigin?.absoluteString }

    /// The API's answer to a `download_url` moved onto it: a `302` to the blob's signed URL on
    /// the storage host.
    func redirectToStorage(_ request: Request, _ context: SandboxRequestContext, requestID: String) throws -> Response {
        let data = store.snapshot()
        guard context.parameters.get("p0") == String(data.accountID),
            let blob = context.parameters.get("p1").flatMap(data.attachment)
        else { throw APIFailure.notFound("File") }
        let origin = storageOrigin ?? AuthorizationRoutes.origin(request)
        let location = origin + basePath + "/_storage/" + blob.sgid + "?signature=" + blob.storageKey
        return Response(status: .found, headers: [.location: location, .xRequestID: requestID])
    }

    /// The storage host's routes: signed blob URLs, and the `download_url`s themselves, which
    /// storage does not serve without a signature (a client must ask the API for one).
    func registerStorage(on router: Router<SandboxRequestContext>) {
        let storage = router.group(RouterPath(basePath))
        storage.get("_storage/{sgid}") { request, context in
            let requestID = self.nextRequestID()
            if let refusal = BlobRoutes.refusingCredentials(request, requestID: requestID) { return refusal }
            let blob = context.parameters.get("sgid").flatMap(self.store.snapshot().attachment)
            return BlobRoutes.serve(blob, request: request, requestID: requestID)
        }
        storage.get(Self.routerPath(BlobRoutes.downloadPath)) { request, _ in
            let requestID = self.nextRequestID()
            if let refusal = BlobRoutes.refusingCredentials(request, requestID: requestID) { return refusal }
            return BasecampServer.failure(
                APIFailure(403, "Storage serves signed URLs only: fetch the download_url through the API."),
                requestID: requestID
            )
        }
    }
}
