import Foundation
import HTTPCore
import HTTPTypes

/// A file fetched through a record's `download_url`.
public struct BasecampDownload: Sendable, Hashable {
    /// The file's bytes.
    public var data: Data
    /// The storage server's `Content-Type`, if it sent one.
    public var contentType: String?
    /// The file name from `Content-Disposition`, if the storage server sent one, as it was sent:
    /// it may hold `/` or `..`, so keep only its last path component before joining it to a
    /// folder, or a server could choose where the file is written.
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
    /// search result…), which is usually on Basecamp's storage host
    /// (`https://storage.3.basecamp.com/…`).
    ///
    /// Two hops, on purpose. First the URL is moved onto the API's origin (path and query
    /// kept) and fetched with your credentials, sending only `Authorization` and `User-Agent`
    /// and following no redirect; that hop is retried on network errors and on 429, 502, 503
    /// and 504 (never 500), waiting what `Retry-After` asks, and is tried once when retries
    /// are off. A 2xx answer is the file. A redirect leads to the second hop: its `Location`,
    /// fetched with no credentials at all (the signature in the URL is the authorisation), no
    /// retry and no redirect; a redirect there is an error and its `Location` is never dialled.
    ///
    /// - Throws: ``APIError/usage(_:)`` for a `download_url` that is not an absolute http(s)
    ///   URL; ``APIError`` for any failed hop.
    public func download(_ downloadURL: String) async throws -> BasecampDownload {
        switch try await firstHop(downloadURL) {
        case .content(let download):
            return download
        case .redirect(let location):
            return try await storage.send(
                Endpoint<BasecampDownload>(
                    .get,
                    location.absoluteString,
                    operation: DownloadHop.storageOperation,
                    decoder: DownloadHop.storageDecoder
                )
            )
        }
    }

    /// Fetches a `download_url`, moved onto the API's origin, with credentials: the file itself
    /// when the API serves it, or where its redirect points.
    func firstHop(_ downloadURL: String) async throws -> DownloadHop {
        let url = try rebased(downloadURL)
        let response = try await downloadHop.response(
            Endpoint<Data>(
                .get,
                url.absoluteString,
                operation: OperationMetadata(
                    name: "Download",
                    service: "downloads",
                    idempotent: true,
                    retry: downloadRetryPolicy,
                    redirects: RedirectPolicy.none
                )
            )
        )
        let status = response.status.code
        guard RedirectPolicy.redirectStatuses.contains(status) else {
            return .content(DownloadHop.download(response.value, response.headers, redirected: false))
        }
        guard let location = response.headers[.location],
            let target = URL(string: location, relativeTo: url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), ["http", "https"].contains(scheme), target.host != nil
        else {
            throw APIError.apiError(
                APIError.Details(
                    message: "Basecamp answered the download with a redirect (HTTP \(status)) but no usable Location.",
                    httpStatus: status,
                    requestID: response.requestID
                )
            )
        }
        return .redirect(target)
    }

    /// `downloadURL` on the API's origin, its path, query and fragment kept: Basecamp's
    /// `download_url`s name its storage host, and credentials only ever go to the API.
    ///
    /// - Throws: ``APIError/usage(_:)`` when it is not an absolute http(s) URL.
    func rebased(_ downloadURL: String) throws -> URL {
        guard let url = URL(string: downloadURL), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), url.host != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let api = URLComponents(url: http.baseURL, resolvingAgainstBaseURL: false)
        else {
            throw APIError.usage(
                APIError.Details(
                    message:
                        "\"\(storage.redactor.redact(urlString: downloadURL))\" is not an http(s) download_url.",
                    hint: "Pass the download_url exactly as the API returned it."
                )
            )
        }
        components.scheme = api.scheme
        components.percentEncodedHost = api.percentEncodedHost
        components.port = api.port
        guard let moved = components.url else {
            throw APIError.usage("The download_url cannot be moved onto \(http.baseURL.absoluteString).")
        }
        return moved
    }

    /// The first hop's retries: network errors, 429, 502, 503 and 504, never 500, with the
    /// attempts and waits of ``BasecampConfig/retryPolicy`` and ``BasecampConfig/maxRetries``;
    /// one attempt when retries are off.
    var downloadRetryPolicy: RetryPolicy {
        guard config.enableRetry else { return .none }
        var policy = config.retryPolicy ?? RetryPolicy()
        policy.retryableStatuses = [429, 502, 503, 504]
        policy.retriesNetworkErrors = true
        policy.maxAttempts = config.attempts(capping: policy.maxAttempts)
        return policy
    }
}

extension AccountClient {
    /// Downloads the file behind a record's `download_url`; see ``BasecampClient/download(_:)``.
    public func download(_ downloadURL: String) async throws -> BasecampDownload {
        try await basecamp.download(downloadURL)
    }
}

/// What the first hop of a download produced, and how the second hop is made.
enum DownloadHop: Sendable {
    case content(BasecampDownload)
    case redirect(URL)

    /// The second hop's operation: no retry, no redirect.
    static let storageOperation = OperationMetadata(
        name: "DownloadFromStorage",
        service: "downloads",
        idempotent: true,
        retry: RetryPolicy.none
    )

    static let storageDecoder = ResponseDecoder<BasecampDownload> { body, response, _ in
        download(body, response.headerFields, redirected: true)
    }

    static func download(_ body: Data, _ headers: HTTPFields, redirected: Bool) -> BasecampDownload {
        BasecampDownload(
            data: body,
            contentType: headers[.contentType],
            filename: headers[.contentDisposition].flatMap(filename(fromDisposition:)),
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

    /// Signed storage URLs carry their authorisation in the query; keep it out of logs.
    static let signedURLRedactor = Redactor(
        secretQueryParameters: [
            "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token", "Signature", "signature", "sig",
            "token", "Policy", "Key-Pair-Id", "GoogleAccessId", "X-Goog-Signature", "X-Goog-Credential",
        ]
    )

    /// A storage server that redirects again is refused: its `Location` is never dialled.
    static let storageErrors = ErrorBodyDecoder { response in
        let status = response.response.status.code
        guard (300..<400).contains(status) else { return nil }
        return .apiError(
            APIError.Details(
                message:
                    "The storage server answered the download with a redirect (HTTP \(status)); it was not followed.",
                hint: "Downloads follow exactly one redirect, from Basecamp to its storage.",
                httpStatus: status,
                requestID: response.requestID
            )
        )
    }
}
