public import ArgumentParser
import Foundation

/// Wraps help text to the terminal's width, leaving example command lines whole.
///
/// ArgumentParser wraps every line at the width it is given, so a long example would be broken
/// in the middle and could no longer be copied. The runner asks it for unwrapped text and wraps
/// it here instead: prose and option descriptions wrap at spaces (continuation lines keep the
/// description column), and a line that is an example command (an indented line starting with
/// the tool's name) is printed whole, however long; terminals soft-wrap it, and copying it gives
/// one line.
///
/// ```swift
/// let text = HelpText.wrap(
///     MyCommand.fullMessage(for: error, columns: HelpText.unwrappedWidth),
///     width: HelpText.terminalWidth(),
///     commands: ["mytool"]
/// )
/// ```
public enum HelpText {
    /// The width to ask ArgumentParser for, so it never wraps itself.
    public static let unwrappedWidth = 10_000

    /// The narrowest width help is drawn at. ArgumentParser also draws a help at the terminal's
    /// width where it is asked for none (finding a help request's exit code), and traps below
    /// about 27 columns, so a tool's process gives it this floor (see ``CLIRunner/main(_:)``).
    public static let minimumWidth = 40

    /// The process's terminal width: `COLUMNS` when set, else stdout's terminal, else 80.
    public static func terminalWidth(variables: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        if let columns = variables["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return CLIEnvironment.terminalWidth(of: 1) ?? 80
    }

    /// `text` with every line longer than `width` wrapped, except example lines.
    ///
    /// - Parameters:
    ///   - width: The terminal's width.
    ///   - commands: The first words of example lines, e.g. `["monash"]`.
    public static func wrap(_ text: String, width: Int, commands: [String]) -> String {
        let width = max(width, minimumWidth)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                guard DisplayWidth.of(line) > width, !isExample(line, commands: commands) else { return String(line) }
                return wrapLine(String(line), width: width)
            }
            .joined(separator: "\n")
    }

    /// The lines of `discussion` that end in the middle of a sentence: prose wrapped by hand,
    /// which the wrapping above would break again at another width. A prose line (not indented)
    /// must end a sentence or introduce what follows (`.`, `:`, `)`, `?` or `!`); indented lines
    /// (examples, lists) may end anywhere.
    public static func handWrappedLines(in discussion: String) -> [String] {
        discussion.split(separator: "\n").filter { line in
            guard let first = line.first, first != " ", let last = line.last else { return false }
            return !".:)?!".contains(last)
        }
        .map(String.init)
    }

    /// The command and every command below it, each with its path (`basecamp todos list`).
    public static func commands(
        of root: any ParsableCommand.Type
    ) -> [(path: String, command: any ParsableCommand.Type)] {
        func walk(
            _ command: any ParsableCommand.Type,
            path: String
        ) -> [(path: String, command: any ParsableCommand.Type)] {
            let name = command.configuration.commandName ?? command._commandName
            let here = path.isEmpty ? name : path + " " + name
            return [(here, command)] + command.configuration.subcommands.flatMap { walk($0, path: here) }
        }
        return walk(root, path: "")
    }

    private static func isExample(_ line: Substring, commands: [String]) -> Bool {
        let trimmed = line.drop { $0 == " " }
        guard trimmed.count < line.count else { return false }
        // A command may follow environment settings (`VAR=value tool …`) or a pipe (`… | tool …`).
        let settingsEnd = trimmed.split(separator: " ").prefix { Self.isSetting($0) }.map { $0.count + 1 }.reduce(0, +)
        let command = trimmed.dropFirst(settingsEnd)
        return commands.contains { command.hasPrefix($0 + " ") || trimmed.contains("| \($0) ") }
    }

    /// Whether `word` sets an environment variable: `NAME=value`, the name in capitals.
    private static func isSetting(_ word: Substring) -> Bool {
        guard let equals = word.firstIndex(of: "="), equals > word.startIndex else { return false }
        return word[..<equals].allSatisfy { $0 == "_" || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    /// Breaks one line at spaces; continuation lines start after `USAGE: `, at the line's
    /// description column (after its first run of two or more spaces, as option lists are laid
    /// out), or else at its own indentation.
    private static func wrapLine(_ line: String, width: Int) -> String {
        let leading = line.prefix { $0 == " " }.count
        var indent = leading
        if line.hasPrefix("USAGE: ") || line.hasPrefix("Usage: ") {
            indent = 7
        } else if let gap = line.dropFirst(leading).range(of: "  ") {
            let column = line.distance(from: line.startIndex, to: gap.lowerBound)
            let start = line[gap.upperBound...].prefix { $0 == " " }.count + column + 2
            if start < width / 2, start < line.count { indent = start }
        }
        var lines: [String] = []
        var current = String(line.prefix(indent))
        var currentWidth = DisplayWidth.of(current)
        let words = line.dropFirst(indent).split(separator: " ", omittingEmptySubsequences: true)
        let pad = String(repeating: " ", count: indent)
        for word in words {
            let wordWidth = DisplayWidth.of(word)
            let needsSpace = currentWidth > indent && !current.hasSuffix(" ")
            if currentWidth + (needsSpace ? 1 : 0) + wordWidth > width, currentWidth > indent {
                lines.append(current)
                current = pad
                currentWidth = indent
            }
            if currentWidth > indent, !current.hasSuffix(" ") {
                current += " "
                currentWidth += 1
            }
            current += word
            currentWidth += wordWidth
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }
}
