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
    // process's children all count towards the one figure the system keeps for them.
    @Test("A 1 GiB upload is streamed to the sandbox's disk and kept whole")
    func oneGibibyte() async throws {
        let size: Int64 = 1 << 30
        let (folder, file) = try Self.sparseFile(size)
        defer { folder.remove() }
        let state = folder.file("state.json")
        let result = try await runBuiltBasecamp(
            ["--sandbox", "--json", "upload", file.path, "--project", Self.project],
            variables: ["BASECAMP_SANDBOX_STATE": state.path]
        )
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try result.json(JSONValue.self)["byteSize"]?.intValue == Int(size))
        let kept = try FileManager.default.contentsOfDirectory(atPath: state.path + ".files")
        #expect(kept.count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: state.path + ".files/" + (kept.first ?? ""))
        #expect((attributes[.size] as? NSNumber)?.int64Value == size)
    }
}
