import Foundation
import HTTPCore

/// Somewhere a command writes text: the process's stdout or stderr, or a buffer in a test.
///
/// Commands never call `print`; they write through ``CommandContext``, which writes to the
/// environment's sinks. That is what lets ``CLIRunner/capture(_:arguments:variables:configure:)``
/// run a command in-process and see exactly what it printed.
public protocol OutputSink: Sendable {
    /// Writes `text` as it is (add your own newline).
    func write(_ text: String)
}

/// The process's standard output or standard error, unbuffered.
public struct StandardStream: OutputSink {
    private let handle: FileHandle

    /// The process's standard output.
    public static var output: StandardStream { StandardStream(handle: .standardOutput) }
    /// The process's standard error.
    public static var error: StandardStream { StandardStream(handle: .standardError) }

    /// Writes the text's UTF-8 bytes.
    public func write(_ text: String) {
        handle.write(Data(text.utf8))
    }
}

/// Keeps everything written, for tests.
public final class CapturedOutput: OutputSink {
    private let buffer = Locked("")

    /// Creates an empty buffer.
    public init() {}

    /// Appends `text`.
    public func write(_ text: String) {
        buffer.withLock { $0 += text }
    }

    /// Everything written so far.
    public var text: String {
        buffer.withLock { $0 }
    }
}

/// Replaces known secret values in everything a command prints, whatever printed them.
///
/// Credentials are registered as soon as they are known (secret flags and environment variables
/// before parsing, credentials resolved later), so neither a server echoing a token nor an
/// argument parser quoting a mistyped flag's value can put it on screen. Values shorter than
/// ``minimumLength`` are not scrubbed: replacing every "ab" would make output unreadable without
/// protecting anything worth protecting.
final class SecretScrubber: Sendable {
    static let minimumLength = 4
    private let secrets = Locked<[String]>([])

    func register(_ value: String) {
        guard value.count >= Self.minimumLength else { return }
        secrets.withLock { secrets in
            guard !secrets.contains(value) else { return }
            secrets.append(value)
            // Longest first, so a secret that contains another is replaced whole.
            secrets.sort { $0.count > $1.count }
        }
    }

    func scrub(_ text: String) -> String {
        let secrets = secrets.withLock { $0 }
        var text = text
        for secret in secrets where text.contains(secret) {
            text = text.replacingOccurrences(of: secret, with: Redactor.placeholder)
        }
        return text
    }
}

/// A sink that scrubs secrets before passing text on.
struct ScrubbingSink: OutputSink {
    let base: any OutputSink
    let scrubber: SecretScrubber

    func write(_ text: String) {
        base.write(scrubber.scrub(text))
    }
}
