#if canImport(Testing)
public import Testing

/// A command line whose options contradict each other, and the options its usage error must
/// name: every tool refuses such a line with exit 64 before it sends anything.
///
/// ```swift
/// static let pairs = OptionContradiction.globalOptions(["list"], baseURL: url) + [
///     OptionContradiction(arguments: ["timetable", "--utc"], names: ["--utc", "--ics"]),
/// ]
///
/// @Test(arguments: pairs)
/// func refused(_ pair: OptionContradiction) async {
///     let transport = ScriptedTransport([])
///     let result = await CLIRunner.capture(Tool.self, arguments: pair.arguments) { $0.transport = transport }
///     pair.expectRefused(result, requestsSent: transport.requests.count)
/// }
/// ```
public struct OptionContradiction: Sendable, Hashable, CustomTestStringConvertible {
    /// The arguments after the tool's name.
    public var arguments: [String]
    /// What the error message must contain: the options (or option and value) that clash.
    public var names: [String]

    /// Creates a contradiction.
    public init(arguments: [String], names: [String]) {
        self.arguments = arguments
        self.names = names
    }

    /// The command line, as the test's argument shows it.
    public var testDescription: String { arguments.joined(separator: " ") }

    /// The contradictions of the global options every tool shares (`--json` with `--format`,
    /// `--sandbox` with `--base-url`), in front of `command`.
    ///
    /// - Parameters:
    ///   - command: A command of the tool that reads, e.g. `["list"]`.
    ///   - baseURL: A `--base-url` value for the tool.
    public static func globalOptions(_ command: [String], baseURL: String) -> [OptionContradiction] {
        [
            OptionContradiction(arguments: ["--json", "--format", "csv"] + command, names: ["--json", "--format"]),
            OptionContradiction(
                arguments: ["--sandbox", "--base-url", baseURL] + command,
                names: ["--sandbox", "--base-url"]
            ),
        ]
    }

    /// Records an issue unless `result` is a usage error (exit 64) whose stderr names each of
    /// ``names`` and no request was sent.
    ///
    /// - Parameters:
    ///   - result: What the tool did with ``arguments``.
    ///   - requestsSent: How many requests the tool's transport received.
    ///   - sourceLocation: Where an issue points; the caller by default.
    public func expectRefused(
        _ result: CommandResult,
        requestsSent: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let context = Comment(rawValue: "\(testDescription): \(result.stderr)")
        #expect(result.exitCode == 64, context, sourceLocation: sourceLocation)
        for name in names {
            #expect(result.stderr.contains(name), context, sourceLocation: sourceLocation)
        }
        #expect(requestsSent == 0, context, sourceLocation: sourceLocation)
    }
}
#endif
