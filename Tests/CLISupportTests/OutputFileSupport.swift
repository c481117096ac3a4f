import CLISupportTesting
import Foundation
import HTTPCore
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// One command of a built tool that writes a file: `OUTPUT` in its arguments stands for the path.
struct FileWritingCommand: Sendable, CustomTestStringConvertible {
    var tool: String
    var arguments: [String]
    var variables: [String: String] = [:]
    /// What the written bytes start with.
    var starts: [UInt8]

    var testDescription: String { ([tool] + arguments).joined(separator: " ") }

    /// Every tool's commands that write a file.
    static let all = [
        FileWritingCommand(
            tool: "basecamp",
            arguments: ["--sandbox", "download", "1069479913", "--output", "OUTPUT"],
            starts: [0, 1, 2, 3]
        ),
        FileWritingCommand(
            tool: "markbook",
            arguments: ["--sandbox", "export", "1000001", "--output", "OUTPUT"],
            starts: Array("\u{FEFF}sid,".utf8)
        ),
        FileWritingCommand(
            tool: "markbook",
            arguments: ["--sandbox", "backup", "download", "--output", "OUTPUT"],
            variables: ["MARKBOOK_SANDBOX_BACKUP": "ready"],
            starts: [0x50, 0x4B]
        ),
        FileWritingCommand(
            tool: "monash",
            arguments: ["--sandbox", "timetable", "--ics", "--output", "OUTPUT"],
            starts: Array("BEGIN:VCALENDAR".utf8)
        ),
    ]

    /// Runs the built tool writing to `path`, with `extra` arguments after the command's own.
    func run(
        to path: String,
        _ extra: [String] = [],
        standardOutput: BuiltExecutable.StandardOutput = .captured
    ) async throws -> CommandResult {
        try await BuiltExecutable.run(
            tool,
            arguments: arguments.map { $0 == "OUTPUT" ? path : $0 } + extra,
            variables: variables,
            standardOutput: standardOutput
        )
    }

    /// Whether `data` is what the command writes.
    func wrote(_ data: Data) -> Bool {
        data.count > starts.count && data.starts(with: starts)
    }
}

/// The file-type bits of `path` (not following a link), or `nil` when nothing is there.
func fileType(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT
}

/// Reads a FIFO to its end on a thread of its own while `body` runs, and returns what it read;
/// when `body` never opens the FIFO, the reader is released so the test cannot hang.
func readingFIFO(_ path: String, while body: () async throws -> Void) async throws -> Data {
    let done = Locked(false)
    let reader = Task.detached { () -> Data in
        await withCheckedContinuation { continuation in
            Thread {
                let descriptor = open(path, O_RDONLY)
                var data = Data()
                if descriptor >= 0 {
                    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                    while true {
                        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                        if count <= 0 { break }
                        data.append(contentsOf: buffer[..<count])
                    }
                    close(descriptor)
                }
                done.withLock { $0 = true }
                continuation.resume(returning: data)
            }
            .start()
        }
    }
    try await body()
    // A writer that never came: opening and closing the FIFO ends the reader's wait.
    while !done.withLock({ $0 }) {
        let releaser = open(path, O_WRONLY | O_NONBLOCK)
        if releaser >= 0 { close(releaser) }
        try await Task.sleep(for: .milliseconds(10))
    }
    return await reader.value
}
