import Foundation
import HTTPCore
import HTTPTypes

/// A file fetched through a record's `download_url`.
public struct BasecampDownload: Sendable, Hashable {
    /// The file's bytes.
    public var data: Data
    /// The storage server's `Content-Type`, if it sent one.
    public var contentType: String?
    /// The file name from `Content-Disposition`, if the storage server sent one.
    public var filename: String?
    /// Whether Basecamp redirected to separate storage (true for almost every file).
    public var redirected: Bool

    /// Creates a download result.
    public init(data: Data, contentType: String? = nil, filename: String? = nil, redirected: Bool = true) {
        self.data = data
        self.contentType = contentType
        self.filename = filename
        self.redirected = redirected
    }
}

extension BasecampClient {
    /// Downloads the file behind a record's `download_url` (an upload, an attachment, a
    /// search result…).
    ///
    /// Two hops, on purpose: the `download_url` is fetched with your credentials, and must be on
    /// the API's own origin; Basecamp answers with a redirect to a signed storage URL, which is
    /// fetched with no credentials at all (the signature is the authorisation, and the token
    /// must never reach the storage host). A further redirect from storage is refused.
    ///
    /// - Throws: ``APIError/usage(_:)`` for a URL that is not on the API's origin;
    ///   ``APIError`` for any failed hop.
    public func download(_ downloadURL: String) async throws -> BasecampDownload {
        switch try await firstHop(downloadURL) {
        case .content(let download):
            return download
        case .redirect(let location):
            var download = try await storage.send(
                Endpoint<BasecampDownload>(
                    .get,
                    location,
                    headers: [.accept: "*/*"],
                    operation: OperationMetadata(name: "DownloadFromStorage", service: "downloads"),
                    decoder: DownloadHop.storageDecoder
                )
            )
            download.redirected = true
            return download
        }
    }

    /// Fetches a `download_url` from the API with credentials: its redirect to storage, or the
    /// file itself when the API serves it.
    func firstHop(_ downloadURL: String) async throws -> DownloadHop {
        guard let url = URL(string: downloadURL), url.scheme != nil, url.host != nil else {
            throw APIError.usage("\"\(storage.configuration.redactor.redact(urlString: downloadURL))\" is not a URL.")
        }
        guard RedirectPolicy.sameOrigin(url, http.baseURL) else {
            throw APIError.usage(
                APIError.Details(
                    message:
                        "Refusing to send Basecamp credentials to \(url.host ?? "another host"): a download_url must be on \(http.baseURL.host ?? "the API's host").",
                    hint: "Pass the download_url exactly as the API returned it."
                )
            )
        }
        return try await downloadHop.send(
            Endpoint<DownloadHop>(
                .get,
                url.absoluteString,
                headers: [.accept: "*/*"],
                operation: OperationMetadata(name: "Download", service: "downloads"),
                decoder: DownloadHop.decoder
            )
        )
    }
}

extension AccountClient {
    /// Downloads the file behind a record's `download_url`; see ``BasecampClient/download(_:)``.
    public func download(_ downloadURL: String) async throws -> BasecampDownload {
        try await basecamp.download(downloadURL)
    }
}

/// What the first hop of a download produced.
enum DownloadHop: Sendable {
    case content(BasecampDownload)
    case redirect(String)

    static let decoder = ResponseDecoder<DownloadHop> { body, response, _ in
        if let location = response.headerFields[DownloadRedirectCapture.locationHeader] {
            return .redirect(location)
        }
        return .content(download(body, response, redirected: false))
    }

    static let storageDecoder = ResponseDecoder<BasecampDownload> { body, response, _ in
        download(body, response, redirected: true)
    }

    static func download(_ body: Data, _ response: HTTPResponse, redirected: Bool) -> BasecampDownload {
        BasecampDownload(
            data: body,
            contentType: response.headerFields[.contentType],
            filename: response.headerFields[.contentDisposition].flatMap(filename(fromDisposition:)),
            redirected: redirected
        )
    }

    /// The `filename` of a `Content-Disposition` value (quoted or bare; `filename*` is ignored).
    static func filename(fromDisposition value: String) -> String? {
        for part in value.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            guard pair.lowercased().hasPrefix("filename=") else { continue }
            var name = pair.dropFirst("filename=".count)
            if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = name.dropFirst().dropLast() }
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }
}

/// Turns the first hop's redirect into a value the SDK can read.
///
/// HTTPCore maps every non-2xx status to an error, so this middleware (on the first-hop client
/// only, whose redirect policy delivers 3xx responses instead of following them) replaces a
/// redirect with an empty 200 carrying the resolved target in a private header. Request hooks
/// still see the real redirect status: they run closer to the transport.
struct DownloadRedirectCapture: Middleware {
    static let locationHeader = HTTPField.Name("X-Basecamp-SDK-Redirect-Location") ?? .location

    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        let result = try await next(request, body, context)
        guard [301, 302, 303, 307, 308].contains(result.response.status.code) else { return result }
        guard let location = result.response.headerFields[.location],
            let target = URL(string: location, relativeTo: result.url)?.absoluteURL
        else {
            throw TransportError(
                .redirectRefused,
                requestMayHaveBeenSent: true,
                message: "The download redirect had no usable Location."
            )
        }
        var fields = HTTPFields()
        fields[Self.locationHeader] = target.absoluteString
        if let requestID = result.response.headerFields[.xRequestID] { fields[.xRequestID] = requestID }
        return TransportResponse(
            response: HTTPResponse(status: .ok, headerFields: fields),
            body: Data(),
            url: result.url
        )
    }

    /// Signed storage URLs carry their authorisation in the query; keep it out of logs.
    static let signedURLRedactor = Redactor(
        secretQueryParameters: [
            "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token", "Signature", "signature", "sig",
            "token", "Policy", "Key-Pair-Id", "GoogleAccessId", "X-Goog-Signature", "X-Goog-Credential",
        ]
    )

    /// A storage server that redirects again is refused: downloads follow exactly one redirect.
    static let storageErrors = ErrorBodyDecoder { response in
        let status = response.response.status.code
        guard (300..<400).contains(status) else { return nil }
        return .apiError(
            APIError.Details(
                message:
                    "The storage server answered a download with another redirect (HTTP \(status)); not following it.",
                hint: "Downloads follow exactly one redirect, from Basecamp to its storage.",
                httpStatus: status,
                requestID: response.requestID
            )
        )
    }
}
