#if os(macOS) || os(Linux)
public import Foundation
import HTTPCore

/// Bytes a child writes, collected as they arrive.
public final class OutputBuffer: Sendable {
    private let data = Locked(Data())

    /// Creates an empty buffer.
    public init() {}

    /// Adds a chunk the child wrote.
    public func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }

    /// Everything so far, as UTF-8 text.
    public var text: String { String(decoding: data.withLock { $0 }, as: UTF8.self) }
}

/// A long-running child of a built executable (`basecamp webhooks listen`, `monash calendar
/// serve`): its output is read while it runs, and it is stopped with SIGINT as Ctrl-C would, or
/// with SIGTERM as a service manager would.
///
/// ```swift
/// let server = try RunningExecutable("monash", arguments: ["--sandbox", "calendar", "serve", "--port", "0"])
/// let url = try await server.waitFor("\n", in: server.stdout)
/// #expect(try await server.interrupt() == 0)
/// ```
public struct RunningExecutable {
    /// The child.
    public let process: Process
    /// What it wrote to stdout so far.
    public let stdout = OutputBuffer()
    /// What it wrote to stderr so far.
    public let stderr = OutputBuffer()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    /// Stdin's pipe when the caller keeps it open: a read of stdin waits until it is closed.
    private let stdinPipe: Pipe?

    /// Starts the built executable `name` with `arguments`, the variables of
    /// ``BuiltExecutable/inheritedVariables`` plus `variables`, and no stdin; with
    /// `keepsStandardInputOpen`, a stdin that never ends until ``closeStandardInput()``, as a
    /// terminal's does while nobody types.
    ///
    /// - Throws: ``BuiltExecutable/Failure/notFound(name:searched:)`` when it is not built;
    ///   `Process`'s error when it cannot start.
    public init(
        _ name: String,
        arguments: [String],
        variables: [String: String] = [:],
        keepsStandardInputOpen: Bool = false,
        filePath: String = #filePath
    ) throws {
        process = Process()
        stdinPipe = keepsStandardInputOpen ? Pipe() : nil
        process.executableURL = try BuiltExecutable.url(named: name, filePath: filePath)
        process.arguments = arguments
        process.environment =
            ProcessInfo.processInfo.environment.filter { BuiltExecutable.inheritedVariables.contains($0.key) }
            .merging(variables) { _, new in new }
        process.standardInput = stdinPipe ?? FileHandle.nullDevice
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
    public func waitFor(_ text: String, in buffer: OutputBuffer) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(60)
        while !buffer.text.contains(text), process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return buffer.text
    }

    /// Ends the stdin that `keepsStandardInputOpen` kept open.
    public func closeStandardInput() {
        try? stdinPipe?.fileHandleForWriting.close()
    }

    /// Sends SIGINT, as Ctrl-C does, and waits for the child to exit; see ``terminate()``.
    public func interrupt() async throws -> Int32 {
        process.interrupt()
        return try await exitStatus()
    }

    /// Sends SIGTERM, as a service manager does, and waits for the child to exit (sending SIGTERM
    /// again after a minute); returns its exit status, or 128 + the signal that ended it, as a shell
    /// reports it. The output buffers then hold everything it wrote.
    public func terminate() async throws -> Int32 {
        process.terminate()
        return try await exitStatus()
    }

    private func exitStatus() async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        closeStandardInput()
        for (pipe, buffer) in [(stdoutPipe, stdout), (stderrPipe, stderr)] {
            pipe.fileHandleForReading.readabilityHandler = nil
            buffer.append(pipe.fileHandleForReading.readDataToEndOfFile())
        }
        let status = process.terminationStatus
        return process.terminationReason == .uncaughtSignal ? 128 + status : status
    }
}
#endif
