import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore

/// Bytes a child writes, collected as they arrive.
final class OutputBuffer: Sendable {
    private let data = Locked(Data())

    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }

    var text: String { String(decoding: data.withLock { $0 }, as: UTF8.self) }
}

/// A long-running child of the built `basecamp` (such as `webhooks listen`): its output is read
/// while it runs, and it is stopped with SIGINT as Ctrl-C would.
struct ListenerProcess {
    let process: Process
    let stdout = OutputBuffer()
    let stderr = OutputBuffer()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()

    init(arguments: [String], variables: [String: String], filePath: String = #filePath) throws {
        process = Process()
        process.executableURL = try BuiltExecutable.url(named: "basecamp", filePath: filePath)
        process.arguments = arguments
        process.environment =
            ProcessInfo.processInfo.environment.filter { BuiltExecutable.inheritedVariables.contains($0.key) }
            .merging(variables) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let stdout = stdout
        let stderr = stderr
        stdoutPipe.fileHandleForReading.readabilityHandler = { stdout.append($0.availableData) }
        stderrPipe.fileHandleForReading.readabilityHandler = { stderr.append($0.availableData) }
        try process.run()
    }

    /// Waits until `buffer` holds `text` (or the child exits, or a minute passes) and returns
    /// the buffer's text.
    @discardableResult
    func waitFor(_ text: String, in buffer: OutputBuffer) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(60)
        while !buffer.text.contains(text), process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return buffer.text
    }

    /// The URL the listener announced on stderr (`Listening on URL (Ctrl-C to stop)`).
    func listeningURL() async throws -> URL? {
        let text = try await waitFor("(Ctrl-C to stop)", in: stderr)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Listening on ") }),
            let url = line.split(separator: " ").dropFirst(2).first
        else { return nil }
        return URL(string: String(url))
    }

    /// Sends SIGINT and waits for the child to exit; its exit status, or 128 + the signal that
    /// ended it.
    func interrupt() async throws -> Int32 {
        process.interrupt()
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        for (pipe, buffer) in [(stdoutPipe, stdout), (stderrPipe, stderr)] {
            pipe.fileHandleForReading.readabilityHandler = nil
            buffer.append(pipe.fileHandleForReading.readDataToEndOfFile())
        }
        let status = process.terminationStatus
        return process.terminationReason == .uncaughtSignal ? 128 + status : status
    }
}
