import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Testing

@Suite("Streaming file transfers over a real loopback server")
final class FileTransferLoopbackTests: Sendable {
    /// The folder every file of one test lives in (megabytes each), removed when the test ends.
    private let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("loopback-transfer-\(UUID().uuidString)", isDirectory: true)

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// A fresh directory of its own under the test's folder.
    private func directory() throws -> URL {
        let url = root.appendingPathComponent(UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("A download larger than the body limit streams to disk", arguments: TransportUnderTest.allCases)
    func downloadBeyondBodyLimit(_ transportUnderTest: TransportUnderTest) async throws {
        try await withContract(transportUnderTest) { sandbox, transport in
            let client = try makeClient(sandbox, transport) { $0.maxResponseBodySize = 64 * 1024 }
            let destination = try directory().appendingPathComponent("file.bin")
            let count = 3 * 1024 * 1024 + 17
            let last = Locked<TransferProgress?>(nil)
            let result = try await client.download(
                Endpoint<Data>(.get, "_test/bytes/\(count)"),
                to: destination,
                progress: { value in last.withLock { $0 = value } }
            )
            #expect(result.byteCount == Int64(count))
            #expect(try Data(contentsOf: destination) == Data.sandboxPattern(count: count))
            #expect(last.withLock { $0 }?.completed == Int64(count))
        }
    }

    @Test(
        "During a download, a redirect's body is kept only up to the error-body limit",
        arguments: TransportUnderTest.allCases
    )
    func redirectBodyCut(_ transportUnderTest: TransportUnderTest) async throws {
        try await withContract(transportUnderTest) { sandbox, transport in
            let client = try makeClient(sandbox, transport) { $0.maxErrorBodySize = 1000 }
            let file = try directory().appendingPathComponent("file.bin")
            let sink = try DownloadSink(destination: FileDestination(file), resume: false)
            var url = sandbox.baseURL.appending(path: "_test/status/302")
            url.append(queryItems: [
                .init(name: "header", value: "Location:/elsewhere"), .init(name: "pad", value: "300000"),
            ])
            let exchange = try await client.exchange(
                HTTPRequest(method: .get, url: url),
                body: nil,
                operation: OperationMetadata(name: "download", redirects: RedirectPolicy.none),
                isIdempotent: true,
                transfer: FileTransfer(download: sink)
            )
            #expect(exchange.response.status.code == 302)
            #expect(exchange.body.count == 1000, "the download's lifted limit covers the file's bytes alone")
        }
    }

    @Test("An interrupted download resumes with a range request", arguments: TransportUnderTest.allCases)
    func resumes(_ transportUnderTest: TransportUnderTest) async throws {
        try await withContract(transportUnderTest) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let destination = try directory().appendingPathComponent("file.bin")
            let count = 200_000
            let partial = Client.partialFile(for: destination)
            try Data.sandboxPattern(count: 70_000).write(to: partial)
            try Data("\"bytes-\(count)\"".utf8).write(to: partial.appendingPathExtension("validator"))
            let result = try await client.download(Endpoint<Data>(.get, "_test/bytes/\(count)"), to: destination)
            #expect(result.status.code == 206)
            #expect(result.resumedFrom == 70_000)
            #expect(try Data(contentsOf: destination) == Data.sandboxPattern(count: count))
        }
    }

    @Test("An in-memory body of several parts arrives whole and in order", arguments: TransportUnderTest.allCases)
    func sendsLargeInMemoryBody(_ transportUnderTest: TransportUnderTest) async throws {
        try await withContract(transportUnderTest) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let bytes = Data.ramp(count: 1_300_007)
            let echo = try await client.send(.echo(.post, body: .bytes(bytes)))
            #expect(echo.bodyBytes == bytes.count)
            #expect(Data(base64Encoded: echo.body) == bytes)
            #expect(echo.header("Content-Length") == "1300007")
        }
    }

    @Test("An upload streams the file's bytes to the server", arguments: TransportUnderTest.allCases)
    func uploads(_ transportUnderTest: TransportUnderTest) async throws {
        try await withContract(transportUnderTest) { sandbox, transport in
            let client = try makeClient(sandbox, transport)
            let file = try directory().appendingPathComponent("upload.bin")
            let bytes = Data.sandboxPattern(count: 700_001)
            try bytes.write(to: file)
            let last = Locked<TransferProgress?>(nil)
            let echo = try await client.upload(
                Endpoint.echo(.post, headers: [.contentType: "application/octet-stream"]),
                fromFile: file,
                progress: { value in last.withLock { $0 = value } }
            ).value
            #expect(echo.bodyBytes == bytes.count)
            #expect(Data(base64Encoded: echo.body) == bytes)
            #expect(echo.header("Content-Length") == "700001")
            #expect(last.withLock { $0 }?.completed == Int64(bytes.count))
        }
    }
}
