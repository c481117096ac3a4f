import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Markbook
import MarkbookSandbox
import Testing

/// `MarkbookClient.downloadBackup(to:replacing:progress:)`: the staging, the zip check and the
/// final rename an app gets without the command line.
@Suite("Downloading a backup with the SDK")
struct BackupDownloadTests {
    /// A new empty directory; the caller removes it.
    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "markbook-sdk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func listing(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Into a directory: the server's file name, a whole zip, nothing else left; an existing file is kept unless replacing"
    )
    func savesIntoDirectory() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await SandboxHarness.withClient { harness, client in
            harness.module.setOptions(.init(backup: .ready))
            let progress = Locked<[TransferProgress]>([])
            let saved = try await client.downloadBackup(to: directory) { step in progress.withLock { $0.append(step) } }
            #expect(saved.file.lastPathComponent == BackupURL.fileName(for: saved.url))
            #expect(saved.file.lastPathComponent.hasPrefix("markbook-backup-"))
            let bytes = try Data(contentsOf: saved.file)
            #expect(bytes.count == saved.byteCount)
            #expect(try ZipReader.entries(bytes).first?.name == "manifest.json")
            #expect(try Self.listing(directory) == [saved.file.lastPathComponent], "no staging file left")
            #expect(progress.withLock { $0.last?.completed } == Int64(bytes.count))

            let refused = await #expect(throws: FileWriteError.self) {
                _ = try await client.downloadBackup(to: saved.file)
            }
            #expect(refused?.reason == .exists)
            #expect(refused?.path == saved.file.path)
            #expect(try Data(contentsOf: saved.file) == bytes)

            try Data("old".utf8).write(to: saved.file)
            let replaced = try await client.downloadBackup(to: saved.file, replacing: true)
            #expect(try Data(contentsOf: replaced.file) == bytes)
            #expect(try Self.listing(directory) == [saved.file.lastPathComponent])
        }
    }

    @Test("An answer that is not a zip saves nothing and leaves no file; the URL is fetched without the session")
    func notAZip() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let backup = "https://smpcsonline.com.au/backups/b.zip"
        let transport = ScriptedTransport([
            loginOK, .json(envelope("getbackupurl", ["url": .string(backup)])),
            .status(200, headers: [.contentType: "text/html"], body: "<html>signed out</html>"),
        ])
        let client = try scriptedClient(transport)
        let target = directory.appending(path: "backup.zip")
        let error = await expectMarkbookError(.apiError) { _ = try await client.downloadBackup(to: target) }
        #expect(error?.message == "The backup URL answered with 23 bytes that are not a zip; nothing was saved.")
        #expect(try Self.listing(directory).isEmpty)
        let fetched = try #require(transport.requests.last)
        #expect(fetched.url.absoluteString == backup)
        #expect(fetched.request.headerFields[.authorization] == nil)
        #expect(!fetched.url.absoluteString.contains("sessiontoken"))
    }

    @Test("A folder that cannot take the zip is refused before the URL is fetched, which starts its hour")
    func unwritableFolder() async throws {
        let scratch = try Self.scratch()
        defer {
            chmod(scratch.path, 0o700)
            try? FileManager.default.removeItem(at: scratch)
        }
        // Root may write any folder it can reach; procfs refuses even root a new file here.
        let folder: URL
        if getuid() == 0 {
            try #require(FileManager.default.fileExists(atPath: "/proc/self"), "needs a non-root user or procfs")
            folder = URL(fileURLWithPath: "/proc/self")
        } else {
            chmod(scratch.path, 0o500)
            folder = scratch
        }
        let transport = ScriptedTransport([loginOK])
        let client = try scriptedClient(transport)
        let refused = await #expect(throws: FileWriteError.self) { _ = try await client.downloadBackup(to: folder) }
        #expect(refused?.path == folder.path)
        #expect(transport.requests.isEmpty)
    }

    @Test("A download cancelled mid-body (what Ctrl-C does in markbook) leaves none of its files")
    func cancelledMidBody() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The zip's start arrives, then nothing more until the task is cancelled.
        let transport = ScriptedTransport([
            loginOK, .json(envelope("getbackupurl", ["url": "https://smpcsonline.com.au/backups/b.zip"])),
            .stream { _, sink in
                try sink.begin(HTTPResponse(status: .ok, headerFields: [.contentLength: "1000"]))
                try sink.write(Data([0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0, count: 100)))
                try await Task.sleep(for: .seconds(60))
                throw CancellationError()
            },
        ])
        let client = try scriptedClient(transport) { $0.retry = .none }
        let task = Task { try await client.downloadBackup(to: directory.appending(path: "backup.zip")) }
        #expect(await waitUntil { ((try? Self.listing(directory)) ?? []).isEmpty == false })
        task.cancel()
        _ = await task.result
        #expect(try Self.listing(directory).isEmpty)
    }

    @Test("An expired URL is not_found with a hint to schedule again; a file name comes from the URL when it is plain")
    func expiredAndNames() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = ScriptedTransport([
            loginOK, .json(envelope("getbackupurl", ["url": "https://smpcsonline.com.au/backups/b.zip"])),
            .status(404, body: "gone"),
        ])
        let error = await expectMarkbookError(.notFound) {
            _ = try await scriptedClient(transport).downloadBackup(to: directory)
        }
        #expect(error?.hint?.contains("schedule a new backup") == true)
        #expect(try Self.listing(directory).isEmpty)

        let plain = try #require(URL(string: "https://example.com/backups/markbook-backup-20240615T010000Z.zip?t=1"))
        #expect(BackupURL.fileName(for: plain) == "markbook-backup-20240615T010000Z.zip")
        #expect(BackupURL.fileName(for: try #require(URL(string: "https://example.com/b/export"))) == "export.zip")
        for hostile in ["download/..", "backups/x%2F..%2F..%2Fescaped", "b/a%5C..%5Cb", "b/a%00b", "b/%2Fetc"] {
            let url = try #require(URL(string: "https://example.com/\(hostile)"))
            #expect(BackupURL.fileName(for: url) == "markbook-backup.zip", "\(hostile)")
        }
    }
}
