import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a stream stopped taking output: the `errno` of the failed `write(2)`.
public struct OutputFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` value, e.g. `EPIPE` or `ENOSPC`.
    public var code: Int32

    /// Creates a failure for `errno` value `code`.
    public init(code: Int32) {
        self.code = code
    }

    /// Whether the reader went away (`EPIPE`): `tool | head` after `head` exited.
    public var isClosedPipe: Bool { code == EPIPE }

    /// The system's sentence for the error, e.g. "No space left on device".
    public var description: String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// The process's standard output or standard error, unbuffered.
///
/// Writes go straight to the file descriptor with `write(2)`, so a failure is an error value,
/// never a trap: after the first failure (a closed pipe, a full disk) the stream records it in
/// ``failure`` and drops everything written later. ``CLIRunner`` ignores `SIGPIPE`, so a closed
/// pipe arrives here as `EPIPE` rather than killing the process before it can clean up.
public struct StandardStream: OutputSink {
    private let descriptor: Int32
    private let state: FailureState

    /// The process's standard output.
    public static let output = StandardStream(descriptor: 1)
    /// The process's standard error.
    public static let error = StandardStream(descriptor: 2)

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        self.state = FailureState()
    }

    /// Why writing stopped, or `nil` while every write has succeeded.
    public var failure: OutputFailure? { state.failure }

    /// Writes the text's UTF-8 bytes, unless an earlier write failed.
    public func write(_ text: String) {
        guard state.failure == nil else { return }
        var text = text
        if let code = text.withUTF8({ FileDescriptorIO.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }) {
            state.record(OutputFailure(code: code))
        }
    }
}

/// The first failure of a stream, shared by every copy of it.
private final class FailureState: Sendable {
    private let stored = Locked<OutputFailure?>(nil)

    var failure: OutputFailure? { stored.withLock { $0 } }

    func record(_ failure: OutputFailure) {
        stored.withLock { stored in
            if stored == nil { stored = failure }
        }
    }
}
