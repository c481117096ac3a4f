import Foundation
import HTTPCoreTesting
import HTTPTypes
import Testing

@testable import HTTPCore

@Suite("Streaming downloads to files and uploads from files")
final class FileTransferTests: Sendable {
    /// The folder every file of one test lives in, removed when the test ends.
    private let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("httpcore-transfer-\(UUID().uuidString)", isDirectory: true)

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// A file named `name` in a fresh directory of its own, not created yet.
    private func file(named name: String) throws -> URL {
        let folder = root.appendingPathComponent(UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name)
    }

    /// What an interrupted download leaves: the bytes so far and their validator.
    private static func leavePartial(_ bytes: String, validator: String, for destination: URL) throws -> URL {
        let partial = Client.partialFile(for: destination)
        try Data(bytes.utf8).write(to: partial)
        try Data(validator.utf8).write(to: partial.appendingPathExtension("validator"))
        return partial
    }

    private static func text(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    @Test("A download lands in the destination, with progress, and leaves no partial file")
    func downloadsToFile() async throws {
        let destination = try file(named: "report.pdf")
        let transport = ScriptedTransport([
            .status(200, headers: [.eTag: "\"v1\"", .contentLength: "11"], body: "hello world")
        ])
        let client = try makeClient(transport)
        let seen = Locked<[TransferProgress]>([])
        let result = try await client.download(
            Endpoint<Data>(.get, "files/1"),
            to: destination,
            progress: { value in seen.withLock { $0.append(value) } }
        )
        #expect(try Self.text(destination) == "hello world")
        #expect(result.byteCount == 11)
        #expect(result.resumedFrom == 0)
        #expect(seen.withLock { $0.last } == TransferProgress(completed: 11, total: 11))
        #expect(!FileManager.default.fileExists(atPath: Client.partialFile(for: destination).path))
        #expect(transport.requests.first?.header("Range") == nil)
        #expect(transport.requests.first?.options.maxBodySize == .max)
    }

    @Test("A partial file with a validator is resumed with Range and If-Range")
    func resumesPartialFile() async throws {
        let destination = try file(named: "report.txt")
        let partial = try Self.leavePartial("hello ", validator: "\"v1\"", for: destination)
        let transport = ScriptedTransport([
            .status(206, headers: [.contentRange: "bytes 6-10/11", .eTag: "\"v1\""], body: "world")
        ])
        let result = try await makeClient(transport).download(Endpoint<Data>(.get, "files/1"), to: destination)
        #expect(transport.requests.first?.header("Range") == "bytes=6-")
        #expect(transport.requests.first?.header("If-Range") == "\"v1\"")
        #expect(try Self.text(destination) == "hello world")
        #expect(result.resumedFrom == 6)
        #expect(result.byteCount == 11)
        #expect(!FileManager.default.fileExists(atPath: partial.appendingPathExtension("validator").path))
    }

    @Test("A partial file of another resource is not continued: two files of one name never splice")
    func otherResourceStartsOver() async throws {
        let destination = try file(named: "report.txt")
        let partial = Client.partialFile(for: destination)
        try Data("AAAA".utf8).write(to: partial)
        try Data("\"v1\"\n/v1/files/a".utf8).write(
            to: partial.appendingPathExtension("validator")
        )
        let transport = ScriptedTransport([.status(200, headers: [.eTag: "\"v1\""], body: "BBBBBBBB")])
        let result = try await makeClient(transport).download(Endpoint<Data>(.get, "files/b"), to: destination)
        #expect(transport.requests.first?.header("Range") == nil)
        #expect(try Self.text(destination) == "BBBBBBBB")
        #expect(result.resumedFrom == 0)
    }

    @Test(
        "A 206 of another version than the partial file's, from a server ignoring If-Range, is refused; the retry fetches it whole"
    )
    func mismatchedPartRefused() async throws {
        let destination = try file(named: "report.txt")
        _ = try Self.leavePartial("hello ", validator: "\"v1\"", for: destination)
        let transport = ScriptedTransport([
            .status(206, headers: [.contentRange: "bytes 6-10/11", .eTag: "\"v2\""], body: "WORLD"),
            .status(200, headers: [.eTag: "\"v2\""], body: "HELLO WORLD"),
        ])
        let result = try await makeClient(transport).download(Endpoint<Data>(.get, "files/1"), to: destination)
        #expect(transport.requests.map { $0.header("Range") } == ["bytes=6-", nil])
        #expect(try Self.text(destination) == "HELLO WORLD")
        #expect(result.resumedFrom == 0)
    }

    @Test("Downloads ask for no content coding, and a compressed answer is never resumed")
    func contentCodingNotResumed() throws {
        let request = { (path: String) in
            HTTPRequest(method: .get, scheme: "https", authority: "files.example.com", path: path)
        }
        for (coding, kept) in [(nil, "\"v1\"\n/f"), ("gzip", nil)] as [(String?, String?)] {
            let destination = try file(named: "f.bin")
            let sink = try DownloadSink(destination: FileDestination(destination), resume: true)
            var sent = request("/f?signature=abc")
            sink.prepare(&sent)
            #expect(sent.headerFields[.acceptEncoding] == "identity")
            var fields: HTTPFields = [.eTag: "\"v1\""]
            fields[.contentEncoding] = coding
            try sink.begin(HTTPResponse(status: .ok, headerFields: fields))
            try sink.write(Data("half".utf8))
            sink.close()
            let saved = try? String(contentsOf: sink.validatorFile, encoding: .utf8)
            #expect(saved == kept, "the signature is not part of the resource")
        }
    }

    @Test("A server that sends the whole file despite If-Range replaces the partial file")
    func changedFileStartsOver() async throws {
        let destination = try file(named: "report.txt")
        _ = try Self.leavePartial("stale bytes", validator: "\"old\"", for: destination)
        let transport = ScriptedTransport([.status(200, headers: [.eTag: "\"new\""], body: "new")])
        let result = try await makeClient(transport).download(Endpoint<Data>(.get, "files/1"), to: destination)
        #expect(try Self.text(destination) == "new")
        #expect(result.resumedFrom == 0)
    }

    @Test(
        "A 206 that does not continue the partial file, or stops short with no retry left, fails and keeps it",
        arguments: [("bytes 0-4/11", "hello", "hello "), ("bytes 6-8/11", "wor", "hello wor")]
    )
    func partialRangeFails(contentRange: String, body: String, kept: String) async throws {
        let destination = try file(named: "report.txt")
        let partial = try Self.leavePartial("hello ", validator: "\"v1\"", for: destination)
        let transport = ScriptedTransport([
            .status(206, headers: [.contentRange: contentRange, .eTag: "\"v1\""], body: body)
        ])
        let client = try makeClient(transport) { $0.retry = .none }
        let error = await caughtAPIError {
            _ = try await client.download(Endpoint<Data>(.get, "files/1"), to: destination)
        }
        #expect(error != nil)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try Self.text(partial) == kept)
    }

    @Test("A 206 that stops short of the end is not the whole file: the retry asks for the rest")
    func shortRangeResumed() async throws {
        let destination = try file(named: "report.txt")
        _ = try Self.leavePartial("hello ", validator: "\"v1\"", for: destination)
        let transport = ScriptedTransport([
            .status(206, headers: [.contentRange: "bytes 6-8/11", .eTag: "\"v1\""], body: "wor"),
            .status(206, headers: [.contentRange: "bytes 9-10/11", .eTag: "\"v1\""], body: "ld"),
        ])
        let result = try await makeClient(transport).download(Endpoint<Data>(.get, "files/1"), to: destination)
        #expect(transport.requests.map { $0.header("Range") } == ["bytes=6-", "bytes=9-"])
        #expect(try Self.text(destination) == "hello world")
        #expect(result.byteCount == 11)
    }

    @Test("A redirect handed back by an operation that follows none saves nothing and keeps the file")
    func redirectSavesNothing() async throws {
        let destination = try file(named: "report.txt")
        try Data("kept".utf8).write(to: destination)
        let transport = ScriptedTransport([.status(302, headers: [.location: "https://storage.example.com/f"])])
        let client = try makeClient(transport)
        let endpoint = Endpoint<Data>(.get, "files/1", operation: OperationMetadata(redirects: RedirectPolicy.none))
        let error = await caughtAPIError {
            _ = try await client.download(endpoint, to: destination)
        }
        #expect(error?.code == .apiError)
        #expect(error?.httpStatus == 302)
        #expect(try Self.text(destination) == "kept")
    }

    @Test("If-Range carries Last-Modified only when it is a strong validator, a second before Date")
    func lastModifiedValidator() {
        let modified = "Mon, 30 Nov 2026 10:00:00 GMT"
        #expect(DownloadSink.validator(of: [.eTag: "W/\"x\"", .lastModified: modified]) == nil)
        #expect(
            DownloadSink.validator(of: [.lastModified: modified, .date: "Mon, 30 Nov 2026 10:00:00 GMT"]) == nil,
            "modified within the second the answer was made: the file may change again unseen"
        )
        let secondLater: HTTPFields = [.lastModified: modified, .date: "Mon, 30 Nov 2026 10:00:01 GMT"]
        #expect(DownloadSink.validator(of: secondLater) == modified)
        #expect(DownloadSink.validator(of: [.eTag: "\"v1\"", .lastModified: modified]) == "\"v1\"")
    }

    @Test("A 416 to a resumed request discards the partial file and fetches the whole file once")
    func rangeNotSatisfiableStartsOver() async throws {
        let destination = try file(named: "report.txt")
        _ = try Self.leavePartial("far too long", validator: "\"v1\"", for: destination)
        let transport = ScriptedTransport([
            .status(416, headers: [.contentRange: "bytes */3"]),
            .status(200, headers: [.eTag: "\"v1\""], body: "abc"),
        ])
        _ = try await makeClient(transport).download(Endpoint<Data>(.get, "files/1"), to: destination)
        #expect(transport.requests.map { $0.header("Range") } == ["bytes=12-", nil])
        #expect(try Self.text(destination) == "abc")
    }

    @Test("Without resume, a partial file is ignored and overwritten")
    func resumeOff() async throws {
        let destination = try file(named: "report.txt")
        _ = try Self.leavePartial("hello ", validator: "\"v1\"", for: destination)
        let transport = ScriptedTransport([.status(200, body: "fresh")])
        _ = try await makeClient(transport).download(Endpoint<Data>(.get, "files/1"), to: destination, resume: false)
        #expect(transport.requests.first?.header("Range") == nil)
        #expect(try Self.text(destination) == "fresh")
    }

    @Test("An error answer is an APIError and writes nothing to the destination")
    func errorStatusWritesNothing() async throws {
        let destination = try file(named: "missing.txt")
        let transport = ScriptedTransport([.status(404, body: "{\"error\":\"Not found\"}")])
        let client = try makeClient(transport)
        let error = await caughtAPIError {
            _ = try await client.download(Endpoint<Data>(.get, "files/9"), to: destination)
        }
        #expect(error?.code == .notFound)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(!FileManager.default.fileExists(atPath: Client.partialFile(for: destination).path))
    }

    @Test("A retried download asks only for the bytes the failed attempt did not store")
    func retryResumes() async throws {
        let destination = try file(named: "big.bin")
        let transport = HalfThenFailTransport(body: Data("0123456789".utf8))
        let result = try await transport.client().download(Endpoint<Data>(.get, "big"), to: destination)
        #expect(transport.ranges == [nil, "bytes=5-"])
        #expect(try Self.text(destination) == "0123456789")
        #expect(result.resumedFrom == 5)
    }

    @Test("An upload sends the file's bytes with its length and the endpoint's content type")
    func uploadsFromFile() async throws {
        let file = try file(named: "photo.png")
        let bytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0) })
        try bytes.write(to: file)
        let transport = ScriptedTransport([.json(["id": 7], status: 201)])
        let seen = Locked<TransferProgress?>(nil)
        let response = try await makeClient(transport).upload(
            Endpoint<JSONValue>(.post, "attachments.json", headers: [.contentType: "image/png"]),
            fromFile: file,
            progress: { value in seen.withLock { $0 = value } }
        )
        #expect(response.value["id"] == 7)
        let sent = try #require(transport.requests.first)
        #expect(sent.body == bytes)
        #expect(sent.header("Content-Length") == "5000")
        #expect(sent.header("Content-Type") == "image/png")
        #expect(seen.withLock { $0 } == TransferProgress(completed: 5000, total: 5000))
    }

    @Test("An upload of a missing file fails before anything is sent")
    func uploadMissingFile() async throws {
        let transport = ScriptedTransport([.json(["id": 7], status: 201)])
        let client = try makeClient(transport)
        let error = await caughtAPIError {
            _ = try await client.upload(
                Endpoint<JSONValue>(.post, "attachments.json"),
                fromFile: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)")
            )
        }
        #expect(error != nil)
        #expect(transport.requests.isEmpty)
    }

    @Test("Content-Range values parse, and malformed ones are rejected")
    func contentRangeParsing() {
        let range = ContentRange("bytes 6-10/11")
        #expect(range?.start == 6 && range?.end == 10 && range?.total == 11)
        #expect(ContentRange("bytes 0-0/*")?.total == nil)
        #expect(ContentRange("bytes 5-1/10") == nil)
        #expect(ContentRange("items 0-1/2") == nil)
        #expect(ContentRange("bytes 0-1/x") == nil)
    }
}

/// Sends the first half of a body and then loses the connection; answers a resumed request
/// with the rest (or, when it `ignoresRange`, with the whole body again).
final class HalfThenFailTransport: HTTPTransport {
    let body: Data
    let ignoresRange: Bool
    private let seen = Locked<[String?]>([])
    var ranges: [String?] { seen.withLock { $0 } }

    init(body: Data, ignoresRange: Bool = false) {
        self.body = body
        self.ignoresRange = ignoresRange
    }

    /// A client on this transport that tries three times, on a test clock.
    func client() throws -> Client {
        var configuration = ClientConfiguration(
            baseURL: try #require(URL(string: "https://api.example.com")),
            timeSource: TestClock()
        )
        configuration.retry = RetryPolicy(maxAttempts: 3)
        return try Client(configuration: configuration, transport: self)
    }

    func send(_ request: HTTPRequest, body: Data?, options: TransportOptions) async throws -> TransportResponse {
        throw TransportError(.other, requestMayHaveBeenSent: false, message: "Only streaming calls expected.")
    }

    func send(
        _ request: HTTPRequest,
        body: Data?,
        options: TransportOptions,
        transfer: FileTransfer
    ) async throws -> TransportResponse {
        let range = request.headerFields[.range]
        let attempt = seen.withLock { seen -> Int in
            seen.append(range)
            return seen.count
        }
        let sink = try #require(transfer.download)
        defer { sink.close() }
        let url = try #require(request.url)
        let half = self.body.count / 2
        if attempt == 1 {
            try sink.begin(HTTPResponse(status: .ok, headerFields: [.eTag: "\"b\""]))
            try sink.write(self.body.prefix(half))
            throw TransportError(.connectionLost, requestMayHaveBeenSent: true, message: "Connection lost.")
        }
        if ignoresRange {
            let response = HTTPResponse(status: .ok, headerFields: [.eTag: "\"b\""])
            try sink.begin(response)
            try sink.write(self.body)
            return TransportResponse(response: response, url: url)
        }
        let fields: HTTPFields = [.contentRange: "bytes \(half)-\(self.body.count - 1)/\(self.body.count)"]
        let response = HTTPResponse(status: .partialContent, headerFields: fields)
        try sink.begin(response)
        try sink.write(self.body.suffix(from: half))
        return TransportResponse(response: response, url: url)
    }
}
