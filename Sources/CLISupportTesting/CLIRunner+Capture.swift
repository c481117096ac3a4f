public import CLISupport
import Foundation
import HTTPCore

extension CLIRunner {
    /// Runs the tool in-process with captured output, for tests: the same parsing, context, error
    /// reporting and exit codes as ``main(_:)``.
    ///
    /// ```swift
    /// let result = await CLIRunner.capture(Monash.self, arguments: ["--sandbox", "parking"])
    /// #expect(result.exitCode == 0)
    /// #expect(result.stdout.contains("Clayton live feed"))
    /// ```
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the tool's name.
    ///   - variables: The environment variables the command sees (nothing else leaks in).
    ///   - configure: Adjusts the rest of the environment: time zone (UTC by default), clock,
    ///     transport, whether stderr is a terminal.
    public static func capture<Tool: CommandLineTool>(
        _ tool: Tool.Type,
        arguments: [String],
        variables: [String: String] = [:],
        configure: (inout CLIEnvironment) -> Void = { _ in }
    ) async -> CommandResult {
        let stdout = CapturedOutput()
        let stderr = CapturedOutput()
        var environment = CLIEnvironment(variables: variables, standardOutput: stdout, standardError: stderr)
        configure(&environment)
        environment.standardOutput = stdout
        environment.standardError = stderr
        let code = await run(tool, arguments: arguments, environment: environment)
        return CommandResult(exitCode: code, stdout: stdout.text, stderr: stderr.text)
    }
}

/// What a command run produced: its exit code and everything it wrote.
public struct CommandResult: Sendable, Hashable {
    /// The exit code.
    public var exitCode: Int32
    /// Everything written to stdout.
    public var stdout: String
    /// Everything written to stderr.
    public var stderr: String

    /// Creates a result.
    public init(exitCode: Int32, stdout: String, stderr: String) {
        self.exitCode = exitCode
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Decodes stdout as JSON, for `--json` runs.
    ///
    /// - Throws: The decoder's error when stdout is not that JSON.
    public func json<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
        let data = Data(stdout.utf8)
        // `JSONValue`'s own parser: through `Decodable` it throws once for each kind it rules out.
        if Value.self == JSONValue.self || Value.self == [JSONValue].self {
            let value = try JSONValue(parsing: data)
            if let typed = value as? Value ?? value.arrayValue as? Value { return typed }
        }
        return try JSONDecoder().decode(Value.self, from: data)
    }

    /// Decodes the last line of stderr as the ``ErrorReport`` a failed `--json` run prints.
    ///
    /// - Throws: The decoder's error when there is no such line.
    public func errorReport() throws -> ErrorReport {
        let line = stderr.split(separator: "\n").last.map(String.init) ?? ""
        return try JSONDecoder().decode(ErrorReport.self, from: Data(line.utf8))
    }
}
