import APISandbox
import Foundation
import Hummingbird
import Testing

/// `BodyFiles`: request bodies streamed to files, and the cap.
@Suite("Request bodies streamed to files")
struct BodyFilesTests {
    private static func chunks(_ count: Int, of size: Int) -> RequestBody {
        let parts = (0..<count).map { index in ByteBuffer(repeating: UInt8(index), count: size) }
        return RequestBody(
            asyncSequence: AsyncStream { continuation in
                for part in parts { continuation.yield(part) }
                continuation.finish()
            }
        )
    }

    @Test("A body arrives chunk by chunk into a file of its own, readable by its owner only")
    func streamsToFile() async throws {
        let files = BodyFiles.temporary(maximumBytes: 1 << 20)
        defer { files.removeAll() }
        let stored = try await files.receive(Self.chunks(4, of: 1000), declaredLength: "4000")
        #expect(stored.byteCount == 4000)
        let data = try Data(contentsOf: files.url(stored.name))
        #expect(data == Data((0..<4).flatMap { Array(repeating: UInt8($0), count: 1000) }))
        let mode = try FileManager.default.attributesOfItem(atPath: files.url(stored.name).path)[.posixPermissions]
        #expect(mode as? Int == 0o600)
        let other = try await files.receive(Self.chunks(1, of: 10), declaredLength: nil)
        #expect(other.name != stored.name)
        files.removeAll()
        #expect(!FileManager.default.fileExists(atPath: files.directory.path))
    }

    @Test("Over the cap: refused at once when declared, else when the cap is crossed; no file is left")
    func cap() async throws {
        let files = BodyFiles.temporary(maximumBytes: 2500)
        defer { files.removeAll() }
        await #expect(throws: BodyFilesError.tooLarge(maximumBytes: 2500)) {
            try await files.receive(Self.chunks(3, of: 1000), declaredLength: "3000")
        }
        await #expect(throws: BodyFilesError.tooLarge(maximumBytes: 2500)) {
            try await files.receive(Self.chunks(3, of: 1000), declaredLength: nil)
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: files.directory.path)) ?? []
        #expect(left.isEmpty)
        #expect(try await files.receive(Self.chunks(2, of: 1250), declaredLength: nil).byteCount == 2500)
        #expect(
            BodyFilesError.tooLarge(maximumBytes: 2500).description
                == "The file is larger than this server takes (2500 bytes)."
        )
    }

    @Test("Ranges: first-last, first-, -suffix; outside the body or several ranges are nil")
    func ranges() {
        #expect(StoredFileResponse.byteRange("bytes=0-9", count: 100) == 0..<10)
        #expect(StoredFileResponse.byteRange("bytes=90-", count: 100) == 90..<100)
        #expect(StoredFileResponse.byteRange("bytes=-5", count: 100) == 95..<100)
        #expect(StoredFileResponse.byteRange("bytes=95-200", count: 100) == 95..<100)
        #expect(StoredFileResponse.byteRange("bytes=100-", count: 100) == nil)
        #expect(StoredFileResponse.byteRange("bytes=0-1,5-6", count: 100) == nil)
        #expect(StoredFileResponse.byteRange("items=0-1", count: 100) == nil)
    }
}
