#if os(macOS) || os(Linux)
public import Foundation
import CLISupport
import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a built executable of this package as a subprocess, for the few tests that must see the
/// real process: argument handling by the OS, exit statuses, real stdout and stderr, what happens
/// when stdout is a closed pipe or a full disk, and the CPU time the process used.
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
        /// The system refused to start it; `code` is the `errno`.
        case launchFailed(name: String, code: Int32)

        /// What happened and what to do.
        public var description: String {
            switch self {
            case .notFound(let name, let searched):
                return "No built '\(name)' in \(searched.joined(separator: ", ")); run `swift build` first."
            case .timedOut(let name, let seconds):
                return "'\(name)' did not exit within \(seconds) s and was terminated."
            case .launchFailed(let name, let code):
                return "'\(name)' could not be started: \(OutputFailure(code: code))."
            }
        }
    }

    /// Where the child's stdout goes.
    public enum StandardOutput: Sendable, Hashable {
        /// Into ``CommandResult/stdout``.
        case captured
        /// A pipe whose read end is already closed, as after `tool | head` once `head` exits:
        /// every write fails with `EPIPE`.
        case closedPipe
        /// A file opened for writing, e.g. `/dev/full`, where every write fails with `ENOSPC`.
        case file(String)
    }

    /// A finished run and the CPU time the child used.
    public struct Measured: Sendable {
        /// Exit code and output.
        public var result: CommandResult
        /// User plus system CPU time of the child, from `wait4`.
        public var cpuTime: Duration
    }

    /// The variables a child inherits from the test process by default: enough to run, nothing
    /// tool-specific, so an `*_BASE_URL` or token on the developer's machine cannot leak in. The
    /// sanitizers' options are among them, so a child built with `--sanitize` reports (or stays
    /// quiet) as the test process does.
    public static let inheritedVariables = [
        "PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS",
    ]

    /// A child's environment: the test process's ``inheritedVariables``, then `variables`.
    public static func environment(_ variables: [String: String]) -> [String: String] {
        let current = ProcessInfo.processInfo.environment
        var environment: [String: String] = [:]
        for key in inheritedVariables {
            if let value = current[key] { environment[key] = value }
        }
        return environment.merging(variables) { _, new in new }
    }

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
    ///   - standardInput: What the child reads on stdin; nothing (`/dev/null`) by default.
    ///   - standardOutput: Where the child's stdout goes (captured by default).
    ///   - timeLimit: How long it may run before it is terminated (a test must not hang).
    ///   - filePath: A file inside the package, normally the caller's `#filePath`.
    /// - Throws: ``Failure`` when it cannot be found, started or overruns.
    public static func run(
        _ name: String,
        arguments: [String] = [],
        variables: [String: String] = [:],
        standardInput: Data? = nil,
        standardOutput: StandardOutput = .captured,
        timeLimit: Duration = .seconds(60),
        filePath: String = #filePath
    ) async throws -> CommandResult {
        try await measure(
            name,
            arguments: arguments,
            variables: variables,
            standardInput: standardInput,
            standardOutput: standardOutput,
            timeLimit: timeLimit,
            filePath: filePath
        )
        .result
    }

    /// Runs the executable `name` like ``run(_:arguments:variables:standardInput:standardOutput:timeLimit:filePath:)``
    /// and also returns the CPU time it used.
    public static func measure(
        _ name: String,
        arguments: [String] = [],
        variables: [String: String] = [:],
        standardInput: Data? = nil,
        standardOutput: StandardOutput = .captured,
        timeLimit: Duration = .seconds(60),
        filePath: String = #filePath
    ) async throws -> Measured {
        let executable = try url(named: name, filePath: filePath)
        let scratch = try ScratchFolder("cli")
        defer { scratch.remove() }
        let stdoutPath = scratch.path("stdout")
        let stderrPath = scratch.path("stderr")
        var stdinPath = "/dev/null"
        if let standardInput {
            stdinPath = scratch.path("stdin")
            try standardInput.write(to: URL(fileURLWithPath: stdinPath))
        }

        let environment = Self.environment(variables)

        // Files rather than pipes: a chatty child can never block on a full pipe buffer.
        let outputTarget: ChildOutput
        switch standardOutput {
        case .captured: outputTarget = .path(stdoutPath)
        case .closedPipe: outputTarget = .closedPipe
        case .file(let path): outputTarget = .path(path)
        }
        let pid = Spawn.start(
            executable.path,
            arguments: arguments,
            environment: environment,
            standardOutput: outputTarget,
            standardInput: stdinPath,
            standardError: stderrPath
        )
        guard pid > 0 else { throw Failure.launchFailed(name: name, code: -pid) }
        let deadline = ContinuousClock.now.advanced(by: timeLimit)
        var overran = false
        var exit: (status: Int32, usage: rusage)?
        while exit == nil {
            exit = Spawn.reap(pid)
            guard exit == nil else { break }
            if ContinuousClock.now >= deadline, !overran {
                overran = true
                kill(pid, SIGKILL)
            }
            // Polling rather than a blocking wait keeps the test's threads free for the server
            // the child may be talking to.
            try? await Task.sleep(for: .milliseconds(10))
        }
        guard let exit else { throw Failure.timedOut(name: name, seconds: Int(timeLimit.components.seconds)) }
        if overran { throw Failure.timedOut(name: name, seconds: Int(timeLimit.components.seconds)) }
        let result = CommandResult(
            exitCode: Spawn.exitCode(exit.status),
            stdout: standardOutput == .captured ? (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" : "",
            stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        )
        return Measured(
            result: result,
            cpuTime: Spawn.duration(exit.usage.ru_utime) + Spawn.duration(exit.usage.ru_stime)
        )
    }
}

/// Where a spawned child's stdout goes.
private enum ChildOutput {
    case path(String)
    case closedPipe
}

/// `posix_spawn` and `wait4`, which Foundation's `Process` does not expose: the child's CPU time
/// needs `wait4`, and `Process` reaps its children itself.
private enum Spawn {
    /// Starts the child; returns its pid, or minus the `errno` when it could not be started.
    static func start(
        _ path: String,
        arguments: [String],
        environment: [String: String],
        standardOutput: ChildOutput,
        standardInput: String,
        standardError: String
    ) -> pid_t {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        var pipeWriteEnd: Int32 = -1
        switch standardOutput {
        case .path(let path):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        case .closedPipe:
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { return -errno }
            // Close-on-exec, so a child another test spawns does not keep a reader alive.
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            // No reader may exist anywhere, so the child's writes fail with EPIPE.
            close(ends[0])
            pipeWriteEnd = ends[1]
            posix_spawn_file_actions_adddup2(&actions, pipeWriteEnd, 1)
            posix_spawn_file_actions_addclose(&actions, pipeWriteEnd)
        }
        defer { if pipeWriteEnd >= 0 { close(pipeWriteEnd) } }
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        // Only stdin, stdout and stderr reach the child: an inherited listening socket of a
        // sandbox the test process runs would keep its port bound after the sandbox stops.
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        closeInheritedDescriptors(&actions)
        #endif

        let argv = ([path] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv + [nil], envp + [nil])
        return status == 0 ? pid : -status
    }

    #if !canImport(Darwin)
    /// Adds glibc's "close every descriptor from 3" action (2.34 and later, looked up at run time
    /// because the Glibc module does not export GNU extensions), else a close for each
    /// descriptor open now.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        if let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        // The listing's own descriptor is closed by now; closing it again would fail the spawn.
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 && fcntl(descriptor, F_GETFD) != -1 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }
    #endif

    /// The exit status and resource usage once the child has exited; `nil` while it runs.
    static func reap(_ pid: pid_t) -> (status: Int32, usage: rusage)? {
        var status: Int32 = 0
        var usage = rusage()
        let reaped = wait4(pid, &status, WNOHANG, &usage)
        return reaped == pid ? (status, usage) : nil
    }

    /// The exit code as a shell reports it: the status, or 128 + the signal that ended the child.
    static func exitCode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    static func duration(_ time: timeval) -> Duration {
        .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
    }
}
#endif
