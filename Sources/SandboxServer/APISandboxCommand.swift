import APISandbox
import ArgumentParser
import BasecampSandbox
import Dispatch
import Foundation
import MarkbookSandbox
import MonashSandbox

/// `api-sandbox`: runs the API sandbox as a standalone server, for poking at it with curl or for
/// pointing an SDK at it by hand.
@main
struct APISandboxCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "api-sandbox",
            abstract: "Runs the API sandbox HTTP server on 127.0.0.1 until interrupted.",
            discussion: """
                Besides the /_test/ routes it serves the SDK sandboxes: Basecamp under /basecamp (any
                bearer token; basecamp --base-url http://127.0.0.1:8080/basecamp) and the Monash
                schedule under /monash.
                """
        )
    }

    @Option(help: "Port to listen on; 0 picks a free port.")
    var port: Int = 8080

    @Flag(help: "Log every request.")
    var verbose = false

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535")
        }
    }

    func run() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else {
            throw ValidationError("api-sandbox needs macOS 14 or later")
        }
        let markbookOptions: MarkbookSandboxOptions
        do {
            markbookOptions = try MarkbookSandboxOptions(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError("\(error)")
        }
        let modules: [any SandboxModule] = [
            BasecampSandboxModule(), MonashSandboxModule(),
            MarkbookSandboxModule(acceptsAnyCredentials: true, options: markbookOptions),
        ]
        let configuration = SandboxConfiguration(modules: modules, logRequests: verbose)
        let sandbox = try await Sandbox.start(port: port, configuration: configuration)
        // Written straight to the file handle so the line is visible at once even when stdout is
        // a pipe, which is how scripts wait for the server to come up.
        emit("api-sandbox listening on \(sandbox.baseURL.absoluteString)")
        emit("  Basecamp: \(sandbox.baseURL.absoluteString)\(BasecampSandboxModule.defaultBasePath) (any bearer token)")
        emit("  Monash:   \(sandbox.baseURL.absoluteString)\(MonashSandboxModule.defaultBasePath)")
        emit("  Markbook: \(sandbox.baseURL.absoluteString)\(MarkbookSandboxModule.defaultBasePath) (any credentials)")
        let signal = await Self.nextTerminationSignal()
        emit("api-sandbox received \(signal == SIGINT ? "SIGINT" : "SIGTERM"), shutting down")
        await sandbox.stop()
        emit("api-sandbox stopped")
    }

    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Waits for SIGINT or SIGTERM. The default handlers are ignored first so the signal reaches
    /// the dispatch source instead of killing the process before the server shuts down.
    private static func nextTerminationSignal() async -> Int32 {
        let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { continuation.yield(signalNumber) }
            source.resume()
            sources.append(source)
        }
        defer {
            for source in sources {
                source.cancel()
            }
        }
        for await signalNumber in signals {
            return signalNumber
        }
        return SIGTERM
    }
}
