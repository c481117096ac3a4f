import Basecamp
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// The two hops of a download, on a scripted transport and a test clock: the `download_url`
/// moved onto the API's origin and fetched with credentials and its own retries, then the
/// signed storage URL with neither.
@Suite("Downloads: the API hop and the storage hop")
struct DownloadHopTests {
    /// A `download_url` as Basecamp returns it: on the storage host, with a query.
    static let storageURL =
        "https://storage.3.basecamp.com/195539477/blobs/0c9a-1f/download/logo.png?disposition=inline"
    /// The same URL moved onto the API's origin.
    static let rebasedURL = "https://3.basecampapi.com/195539477/blobs/0c9a-1f/download/logo.png?disposition=inline"
    static let signed = "https://bc3-production-blobs.example-cdn.com/0c9a?X-Amz-Signature=secret-signature"

    static func file(_ text: String = "PNGDATA") -> ScriptedTransport.Step {
        .respond(
            status: 200,
            headers: [.contentType: "image/png", .contentDisposition: "attachment; filename=\"logo.png\""],
            body: Data(text.utf8)
        )
    }

    static func status(_ code: Int, retryAfter: String? = nil) -> ScriptedTransport.Step {
        var headers = HTTPFields()
        if let retryAfter { headers[.retryAfter] = retryAfter }
        return .status(code, headers: headers)
    }

    /// Downloads through `transport`, expecting an `APIError` with `code` and `status`.
    @discardableResult
    static func failedDownload(
        _ transport: ScriptedTransport,
        _ code: APIError.Code,
        status: Int,
        config: BasecampConfig = BasecampConfig(),
        clock: TestClock = TestClock(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APIError? {
        let basecamp = try makeBasecamp(transport, config: config, clock: clock)
        let error = await expectAPIError(code, sourceLocation: sourceLocation) {
            _ = try await basecamp.download(storageURL)
        }
        #expect(error?.httpStatus == status, sourceLocation: sourceLocation)
        return error
    }

    @Test("A storage-host download_url is asked of the API, then its redirect of storage, without credentials")
    func twoHops() async throws {
        let transport = ScriptedTransport([.status(302, headers: [.location: Self.signed]), Self.file()])
        let file = try await makeBasecamp(transport).download(Self.storageURL)
        #expect(file.data == Data("PNGDATA".utf8))
        #expect(file.contentType == "image/png")
        #expect(file.filename == "logo.png")
        #expect(file.redirected)

        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].url.absoluteString == Self.rebasedURL)
        let firstHopFields = Set(requests[0].request.headerFields.map(\.name))
        #expect(firstHopFields == [.authorization, .userAgent], "only Authorization and User-Agent")
        #expect(requests[0].header("Authorization") == "Bearer \(testToken)")
        #expect(requests[1].url.absoluteString == Self.signed)
        #expect(requests[1].header("Authorization") == nil)
        #expect(requests[1].header("Accept") == nil)
        #expect(requests[1].request.headerFields.allSatisfy { !$0.value.contains(testToken) })
    }

    @Test("A relative Location is resolved against the URL moved onto the API")
    func relativeLocation() async throws {
        let transport = ScriptedTransport([.status(307, headers: [.location: "/signed/logo.png?sig=1"]), Self.file()])
        _ = try await makeBasecamp(transport).download(Self.storageURL)
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                Self.rebasedURL, "https://3.basecampapi.com/signed/logo.png?sig=1",
            ]
        )
        #expect(transport.requests[1].header("Authorization") == nil)
    }

    @Test("A 2xx from the API is the file itself: one request")
    func servedByTheAPI() async throws {
        let transport = ScriptedTransport([Self.file("LOCAL")])
        let file = try await makeBasecamp(transport).download(Self.storageURL)
        #expect(file.data == Data("LOCAL".utf8))
        #expect(!file.redirected)
        #expect(transport.requests.count == 1)
    }

    @Test(
        "The API hop retries 429, 502, 503 and 504, waiting what Retry-After asks",
        arguments: [429, 502, 503, 504]
    )
    func retriedStatuses(status: Int) async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([
            Self.status(status, retryAfter: "7"), .status(302, headers: [.location: Self.signed]), Self.file(),
        ])
        let file = try await makeBasecamp(transport, clock: clock).download(Self.storageURL)
        #expect(file.data == Data("PNGDATA".utf8))
        #expect(transport.requests.count == 3)
        #expect(transport.requests[1].header("Authorization") == "Bearer \(testToken)", "each attempt is authorised")
        #expect(clock.sleeps == [.seconds(7)], "Retry-After replaces the backoff")
    }

    @Test("The API hop retries a network failure with backoff, and never a 500")
    func networkErrorsNot500() async throws {
        let clock = TestClock()
        let dropped = ScriptedTransport([
            .fail(TransportError(.connectionLost, requestMayHaveBeenSent: true, message: "reset")),
            .status(302, headers: [.location: Self.signed]), Self.file(),
        ])
        _ = try await makeBasecamp(dropped, clock: clock).download(Self.storageURL)
        #expect(dropped.requests.count == 3)
        #expect(clock.sleeps.count == 1)

        let failing = ScriptedTransport([Self.status(500), .status(302, headers: [.location: Self.signed])])
        try await Self.failedDownload(failing, .apiError, status: 500)
        #expect(failing.requests.count == 1)
    }

    @Test("With retries off the API hop is tried exactly once")
    func noRetry() async throws {
        let transport = ScriptedTransport([Self.status(503, retryAfter: "1"), Self.file()])
        try await Self.failedDownload(transport, .apiError, status: 503, config: BasecampConfig(enableRetry: false))
        #expect(transport.requests.count == 1)
    }

    @Test("The storage hop is not retried")
    func storageNotRetried() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([
            .status(302, headers: [.location: Self.signed]), Self.status(503, retryAfter: "1"), Self.file(),
        ])
        try await Self.failedDownload(transport, .apiError, status: 503, clock: clock)
        #expect(transport.requests.count == 2)
        #expect(clock.sleeps.isEmpty)
    }

    @Test("A redirect from storage is an error carrying its status; its Location is never dialled")
    func storageRedirect() async throws {
        let transport = ScriptedTransport([
            .status(302, headers: [.location: Self.signed]),
            .status(301, headers: [.location: "https://elsewhere.example.com/b"]),
            Self.file(),
        ])
        let error = try await Self.failedDownload(transport, .apiError, status: 301)
        #expect(error?.message.contains("not followed") == true)
        #expect(transport.requests.count == 2)
        #expect(!transport.requests.contains { $0.url.host == "elsewhere.example.com" })
    }

    @Test("A redirect from the API without a Location is an error, and nothing more is sent")
    func redirectWithoutLocation() async throws {
        let transport = ScriptedTransport([.status(302), Self.file()])
        try await Self.failedDownload(transport, .apiError, status: 302)
        #expect(transport.requests.count == 1)
    }

    @Test("A 404 from either hop is the error it means")
    func otherStatuses() async throws {
        let missing = ScriptedTransport([.status(404)])
        try await Self.failedDownload(missing, .notFound, status: 404)
        let expired = ScriptedTransport([.status(302, headers: [.location: Self.signed]), .status(403)])
        try await Self.failedDownload(expired, .forbidden, status: 403)
        #expect(expired.requests.count == 2)
    }

    @Test("A download_url that is not an absolute http(s) URL is refused before anything is sent")
    func notAURL() async throws {
        let transport = ScriptedTransport([])
        for text in ["logo.png", "ftp://storage.3.basecamp.com/x", "/195539477/blobs/x/download/a"] {
            await expectAPIError(.usage) { _ = try await makeBasecamp(transport).download(text) }
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("A download to a file resumes on the storage hop only, with Range and If-Range")
    func resumeOnStorage() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("logo.png")
        // What an interrupted download left: three bytes and their validator.
        let partial = Client.partialFile(for: target)
        try Data("PNG".utf8).write(to: partial)
        try Data("\"v1\"".utf8).write(to: partial.appendingPathExtension("validator"))
        let transport = ScriptedTransport([
            .status(302, headers: [.location: Self.signed]),
            .respond(status: 206, headers: [.eTag: "\"v1\"", .contentRange: "bytes 3-6/7"], body: Data("DATA".utf8)),
        ])
        let result = try await makeBasecamp(transport).download(Self.storageURL, to: FileDestination(target))
        #expect(try Data(contentsOf: target) == Data("PNGDATA".utf8))
        #expect(result.resumedFrom == 3)
        let requests = transport.requests
        #expect(requests[0].header("Range") == nil, "the API hop asks for no range")
        #expect(requests[1].header("Range") == "bytes=3-")
        #expect(requests[1].header("If-Range") == "\"v1\"")
    }
}
