import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A scratch config folder for one sign-in test, removed afterwards.
struct SignInFolder {
    let url = FileManager.default.temporaryDirectory.appending(path: "basecamp-signin-\(UUID().uuidString)")

    /// `BASECAMP_CONFIG_DIR`, plus `HOME` pointed inside the folder so nothing of the
    /// developer's own sign-in can leak in.
    var variables: [String: String] {
        ["BASECAMP_CONFIG_DIR": url.path, "HOME": url.appending(path: "home").path]
    }

    /// The token file a `--sandbox` sign-in writes.
    var sandboxCredentials: URL { url.appending(path: "sandbox/credentials.json") }
    /// The token file a real sign-in writes.
    var credentials: URL { url.appending(path: "credentials.json") }

    /// The tokens stored in `file`.
    func tokens(_ file: URL) throws -> TokenCredentials {
        try JSONDecoder().decode(TokenCredentials.self, from: Data(contentsOf: file))
    }

    /// Every secret stored in the folder's token and login files: what no output may show.
    func storedSecrets() throws -> [String] {
        var secrets: [String] = []
        for file in [credentials, sandboxCredentials] where FileManager.default.fileExists(atPath: file.path) {
            let stored = try tokens(file)
            secrets += [stored.accessToken, stored.refreshToken].compactMap { $0 }
        }
        return secrets
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// `BASECAMP_NONINTERACTIVE=0`: a person is there (the test, playing the browser or approving
/// the device code), though the tool's stdin is no terminal.
let personPresent = ["BASECAMP_NONINTERACTIVE": "0"]

/// Runs the built `basecamp` for a browser sign-in: waits for it to print the authorization
/// address on stderr, plays the browser by fetching it (the sandbox approves at once and
/// redirects to the command's loopback listener), then waits for the command to exit.
func browserSignIn(
    _ arguments: [String],
    variables: [String: String],
    filePath: String = #filePath
) async throws -> CommandResult {
    let executable = try BuiltExecutable.url(named: "basecamp", filePath: filePath)
    let scratch = try ScratchFolder("signin-run")
    defer { scratch.remove() }
    let stdoutURL = scratch.file("stdout")
    let stderrURL = scratch.file("stderr")
    _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)

    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = BuiltExecutable.environment(personPresent.merging(variables) { $1 })
    process.standardInput = FileHandle.nullDevice
    let output = try FileHandle(forWritingTo: stdoutURL)
    let errors = try FileHandle(forWritingTo: stderrURL)
    defer {
        try? output.close()
        try? errors.close()
    }
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    defer { if process.isRunning { process.terminate() } }

    let deadline = ContinuousClock.now.advanced(by: .seconds(120))
    var opened = false
    while process.isRunning, ContinuousClock.now < deadline {
        if !opened, let address = authorizationAddress(in: (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "")
        {
            opened = true
            _ = try? await URLSession.shared.data(from: address)
        }
        try await Task.sleep(for: .milliseconds(20))
    }
    if process.isRunning {
        process.terminate()
        throw BuiltExecutable.Failure.timedOut(name: "basecamp", seconds: 120)
    }
    return CommandResult(
        exitCode: process.terminationStatus,
        stdout: (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
    )
}

/// The indented address line `auth login` prints under "Open this address…".
func authorizationAddress(in stderr: String) -> URL? {
    stderr.split(separator: "\n").lazy
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .first { $0.hasPrefix("http://") && $0.contains("client_id=") }
        .flatMap(URL.init(string:))
}
