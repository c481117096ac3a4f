import Foundation
import HTTPCore
import HTTPCoreOpenAPI
import HTTPCoreTesting
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import BasecampOpenAPIExample

/// Request and response bodies: streamed through files past the memory limit, and a body that can
/// be read only once never sent twice.
@Suite("HTTPCoreTransport: bodies", .serialized)
struct BodyTests {
    private static func attachment(_ body: HTTPBody) -> Operations.CreateAttachment.Input {
        Operations.CreateAttachment.Input(
            path: .init(accountId: Fixtures.account),
            query: .init(name: "report.bin"),
            body: .binary(body)
        )
    }

    private static let attached: ScriptedTransport.Step = .json(["attachable_sgid": "sgid-1"], status: 201)

    @Test("A body that can be read only once is not retried, and the error says why")
    func singleUseBodyNotRetried() async throws {
        let harness = try Harness(
            [.status(503), Self.attached],
            options: .init(idempotency: ["CreateAttachment": true], mapsErrorStatuses: true)
        )
        let error = await #expect(throws: (any Error).self) {
            _ = try await harness.api.createAttachment(
                Self.attachment(Fixtures.singleUseBody(Array(repeating: 7, count: 100)))
            )
        }
        let apiError = try #require(APIError(openAPI: error ?? CancellationError()))
        #expect(apiError.httpStatus == 503)
        #expect(apiError.message.contains("not retried: its body could be read only once"))
        #expect(harness.scripted.requests.count == 1)
        #expect(harness.events.events.retries.isEmpty)
    }

    @Test("A body that can be read only once is still replayed once after a refreshed token, from the copy read")
    func singleUseBodyReplayedAfterRefresh() async throws {
        let attached: JSONValue = ["attachable_sgid": "sgid-1"]
        let harness = try Harness(
            handler: Fixtures.tokenServer(answer: attached.encoded(), status: .created),
            configure: { $0.auth = Fixtures.refreshingAuth() }
        )
        let body = Fixtures.singleUseBody(Array(repeating: 7, count: 100))
        let output = try await harness.api.createAttachment(Self.attachment(body))
        #expect(try output.created.body.json.attachableSgid == "sgid-1")
        let uploads = harness.scripted.requests.filter { $0.url.path.hasSuffix("attachments.json") }
        #expect(uploads.map { $0.body?.count } == [100, 100])
        #expect(uploads.last?.header("Authorization") == "Bearer new-token")
    }

    @Test("The same body that can be read again is retried, with the same bytes")
    func replayableBodyRetried() async throws {
        let harness = try Harness(
            [.status(503), Self.attached],
            options: .init(idempotency: ["CreateAttachment": true], mapsErrorStatuses: true)
        )
        let output = try await harness.api.createAttachment(Self.attachment(HTTPBody(Array(repeating: 7, count: 100))))
        #expect(try output.created.body.json.attachableSgid == "sgid-1")
        #expect(harness.scripted.requests.count == 2)
        #expect(harness.scripted.requests.map { $0.body?.count } == [100, 100])
    }

    @Test("A body larger than the memory limit, of unknown length, is streamed from a spool file that is then removed")
    func largeBodyStreamedFromFile() async throws {
        let bytes = (0..<(300 * 1024)).map { UInt8(truncatingIfNeeded: $0 * 31) }
        let before = Set(Fixtures.spoolFiles())
        let harness = try Harness([Self.attached], options: .init(maxBufferedRequestBodySize: 64 * 1024))
        _ = try await harness.api.createAttachment(Self.attachment(Fixtures.singleUseBody(bytes)))
        let sent = try #require(harness.scripted.requests.first)
        #expect(sent.body == Data(bytes))
        #expect(sent.header("Content-Length") == String(bytes.count))
        #expect(sent.header("Content-Type") == "application/octet-stream")
        #expect(Set(Fixtures.spoolFiles()).subtracting(before).isEmpty)
    }

    @Test("A body that fails while being read is a usage error, and nothing is sent")
    func unreadableBody() async throws {
        struct Broken: Error {}
        let stream = AsyncThrowingStream<HTTPBody.ByteChunk, any Error> { continuation in
            continuation.yield([1, 2, 3])
            continuation.finish(throwing: Broken())
        }
        let harness = try Harness([Self.attached])
        let error = await #expect(throws: (any Error).self) {
            _ = try await harness.api.createAttachment(Self.attachment(HTTPBody(stream, length: .unknown)))
        }
        #expect(APIError(openAPI: error ?? CancellationError())?.code == .usage)
        #expect(harness.scripted.requests.isEmpty)
    }

    @Test("A streamed response reaches the generated client from a spool file, which is gone once read")
    func streamedResponse() async throws {
        let before = Set(Fixtures.spoolFiles())
        let harness = try Harness(
            [.json(Fixtures.project(1, name: String(repeating: "x", count: 200_000)))],
            options: .init(streamedResponses: ["GetProject"])
        )
        let project = try await harness.api.getProject(path: Fixtures.projectPath).ok.body.json
        #expect(project.name.count == 200_000)
        #expect(Set(Fixtures.spoolFiles()).subtracting(before).isEmpty)
    }

    @Test("A streamed body's spool is this user's only, and goes when a retry ends in an error answer")
    func streamedSpoolAfterError() async throws {
        let before = Set(Fixtures.spoolFiles())
        // Half a 2xx body reaches the spool before the connection is lost; the retry gets a 404.
        let modes = Locked<[Int]>([])
        let harness = try Harness(
            [
                .stream { _, sink in
                    try sink.begin(HTTPResponse(status: .ok, headerFields: [.eTag: "\"v1\"", .contentLength: "10"]))
                    try sink.write(Data("{\"id\"".utf8))
                    let attributes = try FileManager.default.attributesOfItem(atPath: sink.partialFile.path)
                    modes.withLock { $0.append((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) }
                    throw TransportError(.connectionLost, requestMayHaveBeenSent: true, message: "Connection lost.")
                },
                .json(["error": "gone"], status: 404),
            ],
            options: .init(streamedResponses: ["GetProject"])
        )
        let output = try await harness.api.getProject(path: Fixtures.projectPath)
        guard case .notFound = output else {
            Issue.record("expected notFound, got \(output)")
            return
        }
        #expect(modes.withLock { $0 } == [0o600])
        #expect(Set(Fixtures.spoolFiles()).subtracting(before).isEmpty)
    }

    @Test("A streamed operation's error answer comes back from memory")
    func streamedErrorResponse() async throws {
        let harness = try Harness(
            [.json(["error": "gone"], status: 404)],
            options: .init(streamedResponses: ["GetProject"])
        )
        let output = try await harness.api.getProject(path: Fixtures.projectPath)
        guard case .notFound = output else {
            Issue.record("expected notFound, got \(output)")
            return
        }
    }
}
