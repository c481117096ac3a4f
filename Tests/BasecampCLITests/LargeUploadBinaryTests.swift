import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

/// Large files through the built `basecamp` and the sandbox, which streams them to disk.
@Suite("basecamp upload of large files")
struct LargeUploadBinaryTests {
    private static let project = String(BasecampSandboxSeed.letoLaptopProjectID)

    /// A sparse file of `size` bytes (zeros) in a new folder; the caller removes the folder.
    private static func sparseFile(_ size: Int64) throws -> (folder: ScratchFolder, file: URL) {
        let folder = try ScratchFolder("basecamp-large")
        let file = folder.file("big.bin")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
        return (folder, file)
    }

    @Test("A file over the sandbox's cap: exit 10 with a hint, and nothing kept")
    func overTheCap() async throws {
        let (folder, file) = try Self.sparseFile(3 << 20)
        defer { folder.remove() }
        let state = folder.file("state.json")
        let result = try await runBuiltBasecamp(
            ["--sandbox", "--json", "upload", file.path, "--project", Self.project],
            variables: ["BASECAMP_SANDBOX_MAX_UPLOAD": "1M", "BASECAMP_SANDBOX_STATE": state.path]
        )
        #expect(result.exitCode == 10, "\(result.stderr)")
        let report = try result.errorReport()
        #expect(report.code == "limit_exceeded")
        #expect(report.httpStatus == 413)
        #expect(report.message == "The file is larger than this server takes (1048576 bytes).")
        #expect(report.hint?.isEmpty == false)
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: state.path + ".files")) ?? []
        #expect(kept.isEmpty)

        let human = try await runBuiltBasecamp(
            ["--sandbox", "upload", file.path, "--project", Self.project],
            variables: ["BASECAMP_SANDBOX_MAX_UPLOAD": "1M"]
        )
        #expect(human.exitCode == 10)
        #expect(human.stderr.contains("send a smaller body or file"), "\(human.stderr)")
    }

    // Its peak memory is a measurement (docs/performance.md), not an assertion: the test
    // process's children all count towards the one figure the system keeps for them. The
    // streaming path is the same at any size past the first buffer, and 256 MiB costs a quarter
    // of the CPU that 1 GiB did in a suite near its time limit.
    @Test("A 256 MiB upload is streamed to the sandbox's disk and kept whole")
    func largeUpload() async throws {
        let blocks = 256
        let size = Int64(blocks * PatternFile.blockSize)
        let folder = try ScratchFolder("basecamp-large")
        defer { folder.remove() }
        let file = folder.file("big.bin")
        try PatternFile.write(blocks: blocks, to: file)
        let state = folder.file("state.json")
        let result = try await runBuiltBasecamp(
            ["--sandbox", "--json", "upload", file.path, "--project", Self.project],
            variables: ["BASECAMP_SANDBOX_STATE": state.path]
        )
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try result.json(JSONValue.self)["byteSize"]?.intValue == Int(size))
        let kept = try FileManager.default.contentsOfDirectory(atPath: state.path + ".files")
        #expect(kept.count == 1)
        let keptFile = URL(fileURLWithPath: state.path + ".files/" + (kept.first ?? ""))
        let attributes = try FileManager.default.attributesOfItem(atPath: keptFile.path)
        #expect((attributes[.size] as? NSNumber)?.int64Value == size)
        for block in stride(from: 0, to: blocks, by: 31) + [blocks - 1] {
            #expect(try PatternFile.read(block: block, of: keptFile) == PatternFile.block(block), "block \(block)")
        }
    }
}

/// A large file of real bytes: 1 MiB blocks, each a fixed pattern led by its own index, so a
/// block kept out of order, twice or not at all is seen by reading a few of them back.
///
/// Real bytes rather than a sparse file: the first read of a file's holes has the kernel
/// zero-fill every page, which for 1 GiB costs more CPU than the upload itself.
enum PatternFile {
    static let blockSize = 1 << 20

    /// The bytes every block shares: a 251-byte cycle, so no two nearby offsets look alike.
    private static let cycle = Data((0..<blockSize).map { UInt8($0 % 251) })

    /// Block `index`: the cycle with its first eight bytes replaced by the index.
    static func block(_ index: Int) -> Data {
        var data = cycle
        withUnsafeBytes(of: UInt64(index).littleEndian) { data.replaceSubrange(0..<8, with: $0) }
        return data
    }

    static func write(blocks: Int, to file: URL) throws {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        for index in 0..<blocks {
            try handle.write(contentsOf: block(index))
        }
    }

    static func read(block index: Int, of file: URL) throws -> Data? {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(index * blockSize))
        return try handle.read(upToCount: blockSize)
    }
}
