public import Foundation

extension Process {
    /// Runs the process to its end without holding a thread while it runs, and returns its exit
    /// status with what it wrote to stdout and stderr (captured in files, so a chatty process
    /// never blocks on a full pipe).
    ///
    /// Tests call this instead of `waitUntilExit()`: on a two-core machine Swift's concurrency
    /// pool has two threads, and a test that blocks one while a child runs can stall every
    /// loopback server the other tests are using.
    ///
    /// - Parameter timeLimit: How long the process may run before it is terminated.
    /// - Returns: The exit status and the captured output.
    public func runToEnd(timeLimit: Duration = .seconds(60)) async throws -> CommandResult {
        let folder = try ScratchFolder("process")
        defer { folder.remove() }
        let (stdoutFile, stderrFile) = (folder.file("stdout"), folder.file("stderr"))
        for file in [stdoutFile, stderrFile] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let output = try FileHandle(forWritingTo: stdoutFile)
        let errors = try FileHandle(forWritingTo: stderrFile)
        // The child has its own copies; the process object keeps these open for as long as it
        // lives, so a suite running hundreds of children would run out of low descriptors.
        defer {
            try? output.close()
            try? errors.close()
        }
        standardOutput = output
        standardError = errors
        if standardInput == nil { standardInput = FileHandle.nullDevice }
        try run()
        let deadline = ContinuousClock.now + timeLimit
        while isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if isRunning { terminate() }
        // The process has ended (or was just told to), so this wait is brief.
        waitUntilExit()
        return CommandResult(
            exitCode: terminationStatus,
            stdout: (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
        )
    }
}
