import Foundation
import HTTPCoreTesting
import HTTPTypes
import Testing

@testable import HTTPCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The package's one file writer: what a path names decides how it is written, and nothing a
/// write is pointed at is destroyed.
@Suite("Writing files: destinations, the writer, downloads to streams")
struct FileWriterTests {
    private static func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("What a path names decides the kind: new, regular, stream; links are followed")
    func kinds() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appending(path: "file.txt")
            try Data("x".utf8).write(to: file)
            let fifo = folder.appending(path: "fifo").path
            #expect(mkfifo(fifo, 0o600) == 0)
            try FileManager.default.createSymbolicLink(
                atPath: folder.appending(path: "link").path,
                withDestinationPath: "file.txt"
            )
            try FileManager.default.createSymbolicLink(
                atPath: folder.appending(path: "dangling").path,
                withDestinationPath: "new.txt"
            )

            #expect(try FileDestination(path: folder.appending(path: "new.bin").path).kind == .newFile)
            #expect(try FileDestination(path: file.path).kind == .regularFile)
            #expect(try FileDestination(path: "/dev/null").kind == .stream)
            #expect(try FileDestination(path: fifo).kind == .stream)
            #expect(try FileDestination(path: "-") == .standardOutput)
            let link = try FileDestination(path: folder.appending(path: "link").path)
            #expect(link.kind == .regularFile)
            #expect(link.target.lastPathComponent == "file.txt")
            let dangling = try FileDestination(path: folder.appending(path: "dangling").path)
            #expect(dangling.kind == .newFile)
            #expect(dangling.target.lastPathComponent == "new.txt")
        }
    }

    @Test("A folder, a missing folder and a file that may not be replaced are refused before any work")
    func refusals() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appending(path: "file.txt")
            try Data("x".utf8).write(to: file)
            #expect(throws: FileWriteError(path: folder.path, reason: .isFolder)) {
                try FileDestination(path: folder.path)
            }
            let missing = folder.appending(path: "missing/out.txt").path
            #expect(
                throws: FileWriteError(path: missing, reason: .missingFolder(folder.appending(path: "missing").path))
            ) {
                try FileDestination(path: missing)
            }
            #expect(throws: FileWriteError(path: file.path, reason: .exists)) {
                try FileDestination(path: file.path, replacing: false)
            }
            let error = FileWriteError(path: missing, reason: .missingFolder("/x"))
            #expect(error.description == "Cannot write \(missing): the folder /x does not exist.")
        }
    }

    @Test("A save replaces whole, keeps the replaced file's mode, and leaves no staging file")
    func save() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appending(path: "grid.csv")
            try Data("old".utf8).write(to: file)
            chmod(file.path, 0o640)
            try FileWriter.save(Data("new".utf8), to: FileDestination(file))
            #expect(try String(contentsOf: file, encoding: .utf8) == "new")
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o640)
            #expect(try Self.names(folder) == ["grid.csv"])

            let secret = folder.appending(path: "secret.json")
            try PrivateFile.save(Data("{}".utf8), to: secret)
            #expect(try FileManager.default.attributesOfItem(atPath: secret.path)[.posixPermissions] as? Int == 0o600)
        }
    }

    @Test("Two writers of one partial file: the second is refused while the first writes, then may go on")
    func partialFileInUse() async throws {
        try await withTemporaryFolder { folder in
            let destination = try FileDestination(folder.appending(path: "video.mp4"))
            let first = try FileWriter(to: destination, staging: .partial)
            try first.write(Data("first half".utf8))
            let second = try FileWriter(to: destination, staging: .partial)
            #expect(throws: FileWriteError(path: destination.path, reason: .inUse)) {
                try second.write(Data("other bytes".utf8))
            }
            #expect(
                FileWriteError(path: "video.mp4", reason: .inUse).description
                    == "Cannot write video.mp4: another download is writing this file now; wait for it to finish."
            )
            first.closeStaging()
            try second.write(Data(", second half".utf8))
            try second.commit()
            #expect(try String(contentsOf: destination.target, encoding: .utf8) == "first half, second half")
        }
    }

    @Test("A partial file that is a symbolic link is not followed: what it points at is left alone")
    func partialFileLink() async throws {
        try await withTemporaryFolder { folder in
            let victim = folder.appending(path: "victim.txt")
            try Data("keep me".utf8).write(to: victim)
            let destination = try FileDestination(folder.appending(path: "download.bin"))
            try FileManager.default.createSymbolicLink(
                atPath: folder.appending(path: "download.bin.partial").path,
                withDestinationPath: victim.path
            )
            let writer = try FileWriter(to: destination, staging: .partial)
            #expect(throws: FileWriteError(path: destination.path, reason: .system(errno: ELOOP))) {
                try writer.reposition(to: 0)
            }
            #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")
        }
    }

    @Test("The new content of a private file is private from the first byte, staged or partial")
    func stagingTakesTheReplacedMode() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appending(path: "tokens.json")
            try Data("old".utf8).write(to: file)
            chmod(file.path, 0o600)
            for staging in [FileWriter.Staging.temporary, .partial] {
                let writer = try FileWriter(to: try FileDestination(file), staging: staging)
                try writer.write(Data("new".utf8))
                let staged = try #require(try Self.names(folder).first { $0 != "tokens.json" })
                let mode = try FileManager.default.attributesOfItem(atPath: folder.appending(path: staged).path)[
                    .posixPermissions
                ]
                #expect(mode as? Int == 0o600, "\(staging)")
                try writer.commit()
            }
        }
    }

    @Test("A file that appears after the destination was looked at is not replaced without permission")
    func appearedMeanwhile() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appending(path: "report.pdf")
            let destination = try FileDestination(file, replacing: false)
            try Data("someone else's".utf8).write(to: file)
            #expect(throws: FileWriteError(path: file.path, reason: .exists)) {
                try FileWriter.save(Data("mine".utf8), to: destination)
            }
            #expect(try String(contentsOf: file, encoding: .utf8) == "someone else's")
            #expect(try Self.names(folder) == ["report.pdf"])
        }
    }

    @Test(
        "/dev/full is written in place and fails with the reason in words; it stays a device",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"))
    )
    func fullDevice() throws {
        #expect(throws: FileWriteError(path: "/dev/full", reason: .system(errno: ENOSPC))) {
            try FileWriter.save(Data("x".utf8), to: FileDestination(path: "/dev/full"))
        }
        #expect(
            FileWriteError(path: "/dev/full", reason: .system(errno: ENOSPC)).description
                == "Cannot write /dev/full: No space left on device."
        )
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test(
        "A download's write failure is a FileWriteError, never an APIError, and is not retried",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"))
    )
    func downloadWriteFailure() async throws {
        let transport = HalfThenFailTransport(body: Data("0123456789".utf8))
        let client = try transport.client()
        await #expect(throws: FileWriteError(path: "/dev/full", reason: .system(errno: ENOSPC))) {
            _ = try await client.download(Endpoint<Data>(.get, "big"), to: FileDestination(path: "/dev/full"))
        }
        #expect(transport.ranges.count == 1)
    }

    @Test("A download to a FIFO streams in place, and a retry continues it where it stopped")
    func downloadToFIFO() async throws {
        try await withTemporaryFolder { folder in
            let fifo = folder.appending(path: "fifo").path
            #expect(mkfifo(fifo, 0o600) == 0)
            // The reader is a thread started here, not a task: opening a FIFO blocks until the other
            // end opens, and a task could wait for a pool thread that the writer's open holds.
            let (received, delivered) = AsyncStream.makeStream(of: Data.self)
            Thread {
                // read(2) to the end: Foundation reads a FIFO only as far as its size, 0.
                let descriptor = open(fifo, O_RDONLY)
                var data = Data()
                var buffer = [UInt8](repeating: 0, count: 4096)
                while descriptor >= 0 {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count <= 0 { break }
                    data.append(contentsOf: buffer[..<count])
                }
                if descriptor >= 0 { close(descriptor) }
                delivered.yield(data)
                delivered.finish()
            }
            .start()
            let transport = HalfThenFailTransport(body: Data("0123456789".utf8))
            let client = try transport.client()
            let result = try await client.download(Endpoint<Data>(.get, "big"), to: FileDestination(path: fifo))
            var reader = received.makeAsyncIterator()
            #expect(await reader.next() == Data("0123456789".utf8))
            #expect(transport.ranges == [nil, "bytes=5-"])
            #expect(result.resumedFrom == 5)
            #expect(try Self.names(folder) == ["fifo"])
        }
    }

    @Test("A stream that already took part of the body cannot start over: streamRestarted, not a retry loop")
    func streamRestarted() async throws {
        let transport = HalfThenFailTransport(body: Data("0123456789".utf8), ignoresRange: true)
        let client = try transport.client()
        await #expect(throws: FileWriteError(path: "/dev/null", reason: .streamRestarted)) {
            _ = try await client.download(Endpoint<Data>(.get, "big"), to: FileDestination(path: "/dev/null"))
        }
        #expect(transport.ranges.count == 2)
    }
}
