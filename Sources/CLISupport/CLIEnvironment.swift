public import Foundation
public import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything a command takes from the world outside its arguments.
///
/// A command reads environment variables, the clock, the time zone and the streams only through
/// this value (via ``CommandContext``), so a test can run it in-process with all of them pinned:
/// see `CLIRunner.capture` (in `CLISupportTesting`).
public struct CLIEnvironment: Sendable {
    /// Environment variables, e.g. `MONASH_BASE_URL`.
    public var variables: [String: String]
    /// Where results go.
    public var standardOutput: any OutputSink
    /// Where errors, `--verbose` lines and progress go.
    public var standardError: any OutputSink
    /// Whether standard error is a terminal; progress lines are drawn only then.
    public var standardErrorIsTerminal: Bool
    /// Whether standard input is a terminal, that is whether a person may be there to answer;
    /// `false` by default, as for a script or a test.
    public var standardInputIsTerminal: Bool
    /// Reads standard input to its end, but never more than the given number of bytes and one
    /// more, so endless input (`yes | tool …`) is refused rather than held; empty by default.
    /// Commands that take a secret on stdin (`basecamp auth login --with-token`) read it through
    /// this, so a test can hand one in.
    public var readStandardInput: @Sendable (_ limit: Int) throws -> Data
    /// The zone dates are shown in ("local time").
    public var timeZone: TimeZone
    /// The clock: "now" for commands and the client's retry waits.
    public var clock: any TimeSource
    /// The transport the API clients use; `nil` for the tools' own: AsyncHTTPClient on Linux,
    /// URLSession on Apple platforms, made for each command and shut down when it ends.
    public var transport: (any HTTPTransport)?
    /// The width help text wraps at; `nil` asks the terminal.
    public var columns: Int?
    /// The terminal's width when stdout is a terminal, which tables are fitted to; `nil` when
    /// stdout is a file or a pipe (tables are then not cut). `COLUMNS` overrides it.
    public var standardOutputColumns: Int?

    /// Creates an environment; the defaults capture nothing, read an empty stdin that is not a
    /// terminal, and use UTC, the system clock and the default transport.
    public init(
        variables: [String: String] = [:],
        standardOutput: any OutputSink = CapturedOutput(),
        standardError: any OutputSink = CapturedOutput(),
        standardErrorIsTerminal: Bool = false,
        standardInputIsTerminal: Bool = false,
        readStandardInput: @escaping @Sendable (_ limit: Int) throws -> Data = { _ in Data() },
        timeZone: TimeZone = .gmt,
        clock: any TimeSource = SystemTimeSource(),
        transport: (any HTTPTransport)? = nil,
        columns: Int? = 80,
        standardOutputColumns: Int? = nil
    ) {
        self.variables = variables
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardErrorIsTerminal = standardErrorIsTerminal
        self.standardInputIsTerminal = standardInputIsTerminal
        self.readStandardInput = readStandardInput
        self.timeZone = timeZone
        self.clock = clock
        self.transport = transport
        self.columns = columns
        self.standardOutputColumns = standardOutputColumns
    }

    /// The real process: its environment, stdout, stderr, local time zone and clock.
    public static func process() -> CLIEnvironment {
        CLIEnvironment(
            variables: ProcessInfo.processInfo.environment,
            standardOutput: StandardStream.output,
            standardError: StandardStream.error,
            standardErrorIsTerminal: isatty(2) == 1,
            standardInputIsTerminal: isatty(0) == 1,
            readStandardInput: readStandardInput(limit:),
            timeZone: .current,
            clock: SystemTimeSource(),
            transport: nil,
            columns: nil,
            standardOutputColumns: terminalWidth(of: 1)
        )
    }

    /// The process's stdin up to its end or `limit` bytes and one more; `read(upToCount:)` throws
    /// where `readDataToEndOfFile()` would trap (a closed stdin).
    static func readStandardInput(limit: Int) throws -> Data {
        var data = Data()
        while data.count <= limit, let chunk = try FileHandle.standardInput.read(upToCount: 64 * 1024), !chunk.isEmpty {
            data.append(chunk)
        }
        return data.prefix(limit + 1)
    }

    /// The width of the terminal on file descriptor `descriptor`, or `nil` when it is not one.
    static func terminalWidth(of descriptor: Int32) -> Int? {
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
