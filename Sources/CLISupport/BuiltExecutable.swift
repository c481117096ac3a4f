#if os(macOS) || os(Linux)
public import Foundation
import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a built executable of this package as a subprocess, for the few tests that must see the
/// real process: argument handling by the OS, exit statuses, real stdout and stderr.
///
/// ```swift
/// let result = try await BuiltExecutable.run("monash", arguments: ["--sandbox", "parking"])
/// #expect(result.exitCode == 0)
/// ```
///
/// The executable is looked for next to the running test bundle (SwiftPM puts products and
/// tests in one directory), then in `.build/debug` of the package that holds `filePath`. Build it
/// first: `swift build` (or `swift build --build-tests`) builds every product.
public enum BuiltExecutable {
    /// Why a run could not happen.
    public enum Failure: Error, CustomStringConvertible {
        /// The executable is not built where the tests look.
        case notFound(name: String, searched: [String])
        /// It did not exit within the time limit and was terminated.
        case timedOut(name: String, seconds: Int)

        /// What happened and what to do.
        public var description: String {
            switch self {
            case .notFound(let name, let searched):
                return "No built '\(name)' in \(searched.joined(separator: ", ")); run `swift build` first."
            case .timedOut(let name, let seconds):
                return "'\(name)' did not exit within \(seconds) s and was terminated."
            }
        }
    }

    /// The variables a child inherits from the test process by default: enough to run, nothing
    /// tool-specific, so an `*_BASE_URL` or token on the developer's machine cannot leak in.
    public static let inheritedVariables = ["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL"]

    /// Finds the executable `name`.
    ///
    /// - Parameter filePath: A file inside the package, normally the caller's `#filePath`.
    /// - Throws: ``Failure/notFound(name:searched:)``.
    public static func url(named name: String, filePath: String = #filePath) throws -> URL {
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL {
            directories.append(executable.deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/", !directory.path.isEmpty {
            if FileManager.default.fileExists(atPath: directory.appending(path: "Package.swift").path) {
                directories.append(directory.appending(path: ".build/debug"))
                break
            }
            directory = directory.deletingLastPathComponent()
        }
        for candidate in directories.map({ $0.appending(path: name) })
        where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw Failure.notFound(name: name, searched: directories.map(\.path))
    }

    /// Runs the executable `name` and waits for it to exit.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the executable's name.
    ///   - variables: Variables set for the child, on top of ``inheritedVariables``.
    ///   - timeLimit: How long it may run before it is terminated (a test must not hang).
    ///   - filePath: A file inside the package, normally the caller's `#filePath`.
    /// - Throws: ``Failure`` when it cannot be found or overruns; Foundation's error when it
    ///   cannot be launched.
    public static func run(
        _ name: String,
        arguments: [String] = [],
        variables: [String: String] = [:],
        timeLimit: Duration = .seconds(60),
        filePath: String = #filePath
    ) async throws -> CommandResult {
        let executable = try url(named: name, filePath: filePath)
        let scratch = FileManager.default.temporaryDirectory.appending(path: "cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stdoutURL = scratch.appending(path: "stdout")
        let stderrURL = scratch.appending(path: "stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        // Files rather than pipes: a chatty child can never block on a full pipe buffer.
        let stdout = try FileHandle(forWritingTo: stdoutURL)
        let stderr = try FileHandle(forWritingTo: stderrURL)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment: [String: String] = [:]
        let current = ProcessInfo.processInfo.environment
        for key in inheritedVariables {
            if let value = current[key] { environment[key] = value }
        }
        environment.merge(variables) { _, new in new }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr

        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            exited.continuation.yield(process.terminationStatus)
            exited.continuation.finish()
        }
        try process.run()
        let pid = process.processIdentifier
        let overran = Locked(false)
        let watchdog = Task {
            try await Task.sleep(for: timeLimit)
            overran.withLock { $0 = true }
            kill(pid, SIGKILL)
        }
        var statuses = exited.stream.makeAsyncIterator()
        let status = await statuses.next() ?? -1
        watchdog.cancel()
        try? stdout.close()
        try? stderr.close()
        if overran.withLock({ $0 }) {
            throw Failure.timedOut(name: name, seconds: Int(timeLimit.components.seconds))
        }
        return CommandResult(
            exitCode: status,
            stdout: (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
        )
    }
}
#endif
