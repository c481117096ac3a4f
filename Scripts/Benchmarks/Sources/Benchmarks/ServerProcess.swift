import APISandbox
import Foundation

/// Where the loopback sandbox runs for a benchmark run.
enum ServerPlacement: String, Sendable {
    /// In a child process of this executable (`httpcore-bench serve`), so server allocations
    /// and threads do not show up in the client's process.
    case process
    /// In this process, on its own NIO event loops.
    case inprocess
}

/// A running sandbox: its base URL and how to stop it.
final class BenchServer {
    let baseURL: URL
    private let sandbox: Sandbox?
    private let child: Process?
    private let input: Pipe?

    private init(baseURL: URL, sandbox: Sandbox?, child: Process?, input: Pipe?) {
        self.baseURL = baseURL
        self.sandbox = sandbox
        self.child = child
        self.input = input
    }

    static func start(_ placement: ServerPlacement) async throws -> BenchServer {
        switch placement {
        case .inprocess:
            let sandbox = try await Sandbox.start(configuration: SandboxConfiguration(modules: [BenchModule()]))
            return BenchServer(baseURL: sandbox.baseURL, sandbox: sandbox, child: nil, input: nil)
        case .process:
            let (process, input, line) = try launchSelf(["serve"])
            guard let url = line.split(separator: " ").last.flatMap({ URL(string: String($0)) }) else {
                throw BenchError("the server process printed no URL: \(line)")
            }
            return BenchServer(baseURL: url, sandbox: nil, child: process, input: input)
        }
    }

    func stop() async {
        await sandbox?.stop()
        if let child {
            // Closing its stdin is the child's cue to exit; terminate is the fallback.
            try? input?.fileHandleForWriting.close()
            child.terminate()
            child.waitUntilExit()
        }
    }

    /// The child side of ``ServerPlacement/process``: serve until stdin closes.
    static func serveUntilStdinCloses() async throws -> Never {
        let sandbox = try await Sandbox.start(configuration: SandboxConfiguration(modules: [BenchModule()]))
        // FileHandle writes are unbuffered, so the parent sees the line at once.
        FileHandle.standardOutput.write(Data("listening \(sandbox.baseURL.absoluteString)\n".utf8))
        let thread = Thread {
            _ = FileHandle.standardInput.readDataToEndOfFile()
            exit(0)
        }
        thread.start()
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}

/// This executable's own path, so it can start copies of itself.
func selfExecutable() throws -> URL {
    guard let url = Bundle.main.executableURL else { throw BenchError("cannot find the benchmark executable") }
    return url
}

/// Starts this executable with `arguments` and returns it with its stdin pipe and the first line
/// it prints.
func launchSelf(_ arguments: [String]) throws -> (Process, Pipe, String) {
    let process = Process()
    process.executableURL = try selfExecutable()
    process.arguments = arguments
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    var buffer = Data()
    while !buffer.contains(UInt8(ascii: "\n")) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        buffer.append(chunk)
    }
    let line = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    return (process, input, line)
}

/// Runs this executable with `arguments` to completion and returns what it printed.
func runSelf(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = try selfExecutable()
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw BenchError("\(arguments.joined(separator: " ")) exited with status \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
}

/// A field of `/proc/self/status` in KiB (`VmHWM` is the peak resident set size); `nil` where
/// procfs is missing (macOS).
func memoryStatusKiB(_ field: String) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        let number = line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")
        return number.first.flatMap { Double(String($0)) }
    }
    return nil
}
