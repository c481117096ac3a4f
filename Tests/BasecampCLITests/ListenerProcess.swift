import CLISupportTesting
import Foundation

/// A running `basecamp` (such as `webhooks listen`), read while it runs and stopped with SIGINT.
typealias ListenerProcess = RunningExecutable

extension RunningExecutable {
    /// Starts the built `basecamp` with `arguments`.
    init(arguments: [String], variables: [String: String], filePath: String = #filePath) throws {
        try self.init("basecamp", arguments: arguments, variables: variables, filePath: filePath)
    }

    /// The URL the listener announced on stderr (`Listening on URL (Ctrl-C to stop)`).
    func listeningURL() async throws -> URL? {
        let text = try await waitFor("(Ctrl-C to stop)", in: stderr)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Listening on ") }),
            let url = line.split(separator: " ").dropFirst(2).first
        else { return nil }
        return URL(string: String(url))
    }
}
