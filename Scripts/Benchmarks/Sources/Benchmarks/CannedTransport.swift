import AsyncHTTPClient
import Basecamp
import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient
import HTTPCoreObservability
import HTTPTypes
import Logging
import Markbook
import Metrics
import NIOCore
import Tracing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that answers every request with the same 200 JSON body, without I/O.
struct CannedTransport: HTTPTransport {
    let body: Data
    /// When set, every response carries this ETag and a matching `If-None-Match` gets a 304.
    let etag: String?

    init(_ body: Data, etag: String? = nil) {
        self.body = body
        self.etag = etag
    }

    func send(_ request: HTTPRequest, body: Data?, options: TransportOptions) async throws -> TransportResponse {
        // The URL parsed once, as every real transport parses it to send the request.
        guard let url = request.url else {
            throw TransportError(.invalidURL, requestMayHaveBeenSent: false, message: "No URL.")
        }
        return answer(request, url: url)
    }

    private func answer(_ request: HTTPRequest, url: URL) -> TransportResponse {
        guard let etag else {
            return TransportResponse(
                response: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
                body: self.body,
                url: url
            )
        }
        // Not `headerFields[.ifNoneMatch]`: its generic join would be timed as the pipeline's.
        if request.headerFields.contains(where: { $0.name == .ifNoneMatch && $0.value == etag }) {
            return TransportResponse(
                response: HTTPResponse(status: .notModified, headerFields: [.eTag: etag]),
                body: Data(),
                url: url
            )
        }
        return TransportResponse(
            response: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json", .eTag: etag]),
            body: self.body,
            url: url
        )
    }
}
