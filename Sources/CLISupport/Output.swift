import Foundation
import HTTPCore

/// Somewhere a command writes text: the process's stdout or stderr, or a buffer in a test.
///
/// Commands never call `print`; they write through ``CommandContext``, which writes to the
/// environment's sinks. That is what lets `CLIRunner.capture` (in `CLISupportTesting`)
/// run a command in-process and see exactly what it printed.
public protocol OutputSink: Sendable {
    /// Writes `text` as it is (add your own newline). A sink that cannot write records why in
    /// ``failure`` instead of throwing or trapping.
    func write(_ text: String)

    /// Why the sink stopped taking output (a closed pipe, a full disk), or `nil`. The runner
    /// checks it to end a command whose output can no longer be delivered. `nil` by default.
    var failure: OutputFailure? { get }
}

extension OutputSink {
    /// Never fails.
    public var failure: OutputFailure? { nil }
}

/// Keeps everything written, for tests.
public final class CapturedOutput: OutputSink {
    private let buffer = Locked("")
    private let failing: (after: Int, failure: OutputFailure)?
    private let failed = Locked<OutputFailure?>(nil)

    /// Creates an empty buffer.
    public init() {
        failing = nil
    }

    /// Creates a buffer that takes `bytes` UTF-8 bytes, then fails as a stream would with
    /// `failure`: for testing what a command does when its reader goes away or the disk fills up.
    public init(failingAfter bytes: Int, with failure: OutputFailure) {
        failing = (bytes, failure)
    }

    /// Appends `text`, or drops it once the buffer has failed.
    public func write(_ text: String) {
        guard failed.withLock({ $0 }) == nil else { return }
        let overflow = buffer.withLock { buffer -> Bool in
            guard let failing, buffer.utf8.count + text.utf8.count > failing.after else {
                buffer += text
                return false
            }
            return true
        }
        if overflow, let failing { failed.withLock { $0 = failing.failure } }
    }

    /// Why writing stopped, for a buffer made to fail.
    public var failure: OutputFailure? { failed.withLock { $0 } }

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
    private let redactedResults = Locked(false)

    /// Whether a secret was replaced in the results (stdout), which changes data a script reads:
    /// the command says so on stderr as it ends.
    var hasRedactedResults: Bool { redactedResults.withLock { $0 } }

    func register(_ value: String) {
        guard value.count >= Self.minimumLength else { return }
        secrets.withLock { secrets in
            for spelling in Redactor.spellings(of: value) where !secrets.contains(spelling) {
                secrets.append(spelling)
            }
            // Longest first, so a secret that contains another is replaced whole.
            secrets.sort { $0.count > $1.count }
        }
    }

    /// `text` with every secret replaced; `inResults` records a replacement in stdout's results.
    func scrub(_ text: String, inResults: Bool = false) -> String {
        let (scrubbed, changed) = Self.replacing(secrets.withLock { $0 }, in: text)
        if inResults, changed { redactedResults.withLock { $0 = true } }
        return scrubbed
    }

    /// `value` with every secret replaced inside its strings and member names, and a number whose
    /// digits hold one replaced by the placeholder string, so JSON output stays valid JSON;
    /// `inResults` records a replacement in stdout's results.
    func scrub(_ value: JSONValue, inResults: Bool = true) -> JSONValue {
        let secrets = secrets.withLock { $0 }
        guard !secrets.isEmpty else { return value }
        var changed = false
        func text(_ text: String) -> String {
            let result = Self.replacing(secrets, in: text)
            changed = changed || result.changed
            return result.text
        }
        func walk(_ value: JSONValue) -> JSONValue {
            switch value {
            case .null, .bool:
                return value
            case .integer, .number:
                let spelled = String(decoding: value.encoded(), as: UTF8.self)
                return text(spelled) == spelled ? value : .string(Redactor.placeholder)
            case .string(let string):
                return .string(text(string))
            case .array(let items):
                return .array(items.map(walk))
            case .object(let members):
                return .object(Dictionary(members.map { (text($0.key), walk($0.value)) }) { first, _ in first })
            }
        }
        let scrubbed = walk(value)
        if inResults, changed { redactedResults.withLock { $0 = true } }
        return scrubbed
    }

    /// `text` with each of `secrets` replaced, and whether any was there.
    private static func replacing(_ secrets: [String], in text: String) -> (text: String, changed: Bool) {
        var text = text
        var changed = false
        for secret in secrets where text.contains(secret) {
            text = text.replacingOccurrences(of: secret, with: Redactor.placeholder)
            changed = true
        }
        return (text, changed)
    }
}

/// A sink that scrubs secrets before passing text on and shows its control characters
/// (``TerminalControls``), unless it is the progress line's, which draws with them.
struct ScrubbingSink: OutputSink {
    let base: any OutputSink
    let scrubber: SecretScrubber
    var keepsControls = false
    /// Whether this is stdout's sink, whose replacements change the results.
    var carriesResults = false

    func write(_ text: String) {
        let scrubbed = scrubber.scrub(text, inResults: carriesResults)
        base.write(keepsControls ? scrubbed : TerminalControls.shown(scrubbed))
    }

    /// Writes JSON text whose values were already scrubbed (``SecretScrubber/scrub(_:inResults:)``):
    /// scrubbing the text again could replace JSON's own syntax, such as a `null` or a member's
    /// number, and leave output a parser refuses. Its controls are escaped, not shown.
    func writeScrubbedJSON(_ text: String) {
        base.write(TerminalControls.escapedInJSON(text))
    }

    var failure: OutputFailure? { base.failure }
}

/// The command's stdout as the runner sees it: passes writes on and, the first time the sink
/// under it fails, runs the action the runner gave (cancelling the command).
final class WatchedOutput: OutputSink {
    let base: any OutputSink
    private let action = Locked<(@Sendable () -> Void)?>(nil)

    init(base: any OutputSink) {
        self.base = base
    }

    func write(_ text: String) {
        base.write(text)
        if base.failure != nil { takeAction()?() }
    }

    var failure: OutputFailure? { base.failure }

    /// Runs `action` once when the output fails (at once if it already has).
    func whenFailed(_ action: @escaping @Sendable () -> Void) {
        self.action.withLock { $0 = action }
        if base.failure != nil { takeAction()?() }
    }

    private func takeAction() -> (@Sendable () -> Void)? {
        action.withLock { action in
            defer { action = nil }
            return action
        }
    }
}
