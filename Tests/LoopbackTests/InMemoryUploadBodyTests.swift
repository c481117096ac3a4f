import AsyncHTTPClient
import Foundation
import HTTPCore
import NIOCore
import NIOEmbedded
import Testing

@testable import HTTPCoreAsyncHTTPClient

@Suite("An in-memory request body on AsyncHTTPClient")
struct InMemoryUploadBodyTests {
    /// The parts `body` writes, each as its own `Data`.
    private func parts(of body: HTTPClient.Body, on loop: EmbeddedEventLoop) -> [Data] {
        let written = Locked<[Data]>([])
        let writer = HTTPClient.Body.StreamWriter { part in
            guard case .byteBuffer(let buffer) = part else { return loop.makeFailedFuture(CancellationError()) }
            written.withLock { $0.append(Data(buffer.readableBytesView)) }
            return loop.makeSucceededVoidFuture()
        }
        let done = body.stream(writer)
        loop.run()
        #expect(throws: Never.self) { try done.wait() }
        return written.withLock { $0 }
    }

    @Test("A body over one part goes out in parts of 256 KiB, in order, so each part sent shows progress")
    func largeBodyInParts() {
        let loop = EmbeddedEventLoop()
        let data = Data.ramp(count: 4 * 256 * 1024 + 5)
        let body = InMemoryUploadBody.body(for: data, on: loop)
        #expect(body.contentLength == Int64(data.count))
        let written = parts(of: body, on: loop)
        #expect(written.map(\.count) == [262_144, 262_144, 262_144, 262_144, 5])
        #expect(written.reduce(Data(), +) == data)
    }

    @Test("A body that fits in one part is written at once")
    func smallBodyWhole() {
        let loop = EmbeddedEventLoop()
        let data = Data.ramp(count: 256 * 1024)
        let written = parts(of: InMemoryUploadBody.body(for: data, on: loop), on: loop)
        #expect(written == [data])
    }
}

extension Data {
    /// Bytes that step up every 8 KiB: unlike the sandbox's 256-byte pattern, no two parts of a
    /// few megabytes are alike, so parts sent out of order would show.
    static func ramp(count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 >> 13) })
    }
}
