import CLISupport
import CLISupportTesting
import Foundation
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Every tool's file-writing commands, run as the built processes, pointed at what a user might
/// point them at: a new path, an existing file, a missing folder, a FIFO, a device, a symbolic
/// link, `/dev/full`. Nothing they are pointed at is destroyed, and every failure is exit 1
/// `output_failed` naming the path and the reason. One process at a time, as the other process
/// suites run.
@Suite("The built tools writing files", .serialized)
struct OutputFileProcessTests {
    @Test(
        "A new path is written whole; an existing file is kept without --force and replaced with it, keeping its mode",
        arguments: FileWritingCommand.all
    )
    func newAndExisting(_ command: FileWritingCommand) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let target = folder.path("out")
        let created = try await command.run(to: target)
        #expect(created.exitCode == 0, "\(created.stderr)")
        #expect(command.wrote(try Data(contentsOf: URL(fileURLWithPath: target))))
        #expect(try folder.names() == ["out"], "no staging file is left")

        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o600)
        let kept = try await command.run(to: target)
        #expect(kept.exitCode == 64, "\(kept.stderr)")
        #expect(kept.stderr.contains("\(target) already exists."))
        #expect(kept.stderr.contains("--force"))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")

        let replaced = try await command.run(to: target, ["--force"])
        #expect(replaced.exitCode == 0, "\(replaced.stderr)")
        #expect(command.wrote(try Data(contentsOf: URL(fileURLWithPath: target))))
        let mode = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the replaced file's mode is kept")
        #expect(try folder.names() == ["out"])
    }

    @Test("A missing folder is exit 1 output_failed naming the path and the folder", arguments: FileWritingCommand.all)
    func missingFolder(_ command: FileWritingCommand) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let target = folder.path("missing/out")
        let result = try await command.run(to: target)
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(
            result.stderr == "error: Cannot write \(target): the folder \(folder.path("missing")) does not exist.\n"
        )
    }

    @Test(
        "--output - to a full stdout is exit 1 in words; to a closed pipe, 141 and silence",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")),
        arguments: FileWritingCommand.all
    )
    func standardOutput(_ command: FileWritingCommand) async throws {
        let full = try await command.run(to: "-", standardOutput: .file("/dev/full"))
        #expect(full.exitCode == 1, "\(full.stderr)")
        #expect(full.stderr == "error: Cannot write the results to standard output: No space left on device.\n")
        let closed = try await command.run(to: "-", standardOutput: .closedPipe)
        #expect(closed.exitCode == 141, "\(closed.stderr)")
        #expect(closed.stderr.isEmpty)
    }

    @Test(
        "A FIFO is written in place: its reader gets the bytes, and it stays a FIFO",
        arguments: FileWritingCommand.all
    )
    func fifo(_ command: FileWritingCommand) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let pipe = folder.path("pipe")
        #expect(mkfifo(pipe, 0o600) == 0)
        var result: CommandResult?
        let received = try await readingFIFO(pipe) { result = try await command.run(to: pipe) }
        #expect(result?.exitCode == 0, "\(result?.stderr ?? "")")
        #expect(command.wrote(received))
        #expect(fileType(pipe) == S_IFIFO)
        #expect(try folder.names() == ["pipe"])
    }

    @Test(
        "A character device (a copy of /dev/null made with mknod) stays a device",
        .enabled(if: getuid() == 0, "mknod needs root"),
        arguments: FileWritingCommand.all
    )
    func characterDevice(_ command: FileWritingCommand) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        var null = stat()
        #expect(stat("/dev/null", &null) == 0)
        let device = folder.path("null")
        try #require(mknod(device, S_IFCHR | 0o666, null.st_rdev) == 0, "mknod failed: errno \(errno)")
        let result = try await command.run(to: device)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(fileType(device) == S_IFCHR)
        #expect(try folder.names() == ["null"])
    }

    @Test(
        "/dev/full is exit 1 output_failed with the reason in words, and stays a device",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")),
        arguments: FileWritingCommand.all
    )
    func devFull(_ command: FileWritingCommand) async throws {
        let result = try await command.run(to: "/dev/full")
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stderr == "error: Cannot write /dev/full: No space left on device.\n")
        #expect(fileType("/dev/full") == S_IFCHR)
    }

    @Test(
        "A symbolic link is followed: the file it points at is written, and the link kept",
        arguments: FileWritingCommand.all
    )
    func symbolicLink(_ command: FileWritingCommand) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("real"), withIntermediateDirectories: true)
        let link = folder.path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/target")

        // A link whose target does not exist yet: the target is created.
        let created = try await command.run(to: link)
        #expect(created.exitCode == 0, "\(created.stderr)")
        #expect(fileType(link) == S_IFLNK)
        #expect(command.wrote(try Data(contentsOf: URL(fileURLWithPath: folder.path("real/target")))))

        // A link to an existing file: kept without --force, written through with it.
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder.path("real/target")))
        let kept = try await command.run(to: link)
        #expect(kept.exitCode == 64, "\(kept.stderr)")
        let replaced = try await command.run(to: link, ["--force"])
        #expect(replaced.exitCode == 0, "\(replaced.stderr)")
        #expect(fileType(link) == S_IFLNK)
        #expect(command.wrote(try Data(contentsOf: URL(fileURLWithPath: folder.path("real/target")))))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("real")) == ["target"])
    }

    @Test(
        "A folder that cannot be written is exit 1 with the system's reason",
        .enabled(if: getuid() != 0, "root writes anywhere"),
        arguments: FileWritingCommand.all
    )
    func readOnlyFolder(_ command: FileWritingCommand) async throws {
        let folder = try ScratchFolder()
        defer {
            chmod(folder.url.path, 0o700)
            folder.remove()
        }
        chmod(folder.url.path, 0o500)
        let result = try await command.run(to: folder.path("out"))
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stderr == "error: Cannot write \(folder.path("out")): Permission denied.\n")
    }
}
