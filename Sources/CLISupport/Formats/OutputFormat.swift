public import ArgumentParser
import Foundation

/// How a command prints its results: `--format table|json|jsonl|csv|tsv`.
///
/// `table` is for people; the others are for scripts and print the same fields as `json`, the
/// tool's documented JSON names. `--json` is short for `--format json`.
public enum OutputFormat: String, CaseIterable, Sendable, Hashable, ExpressibleByArgument {
    /// Aligned columns for a terminal (the default).
    case table
    /// One pretty-printed JSON document: an array for a list, an object for a single thing.
    case json
    /// JSON Lines: one compact object per line, a list's items one by one.
    case jsonl
    /// Comma-separated values (RFC 4180 quoting, LF line ends) with a header line.
    case csv
    /// Tab-separated values with a header line; tabs, newlines and backslashes in values are
    /// written as `\t`, `\n`, `\r` and `\\`.
    case tsv

    /// The values `--format` takes, in declaration order; made once, because ArgumentParser asks
    /// for them each time it builds the option, several times in every parse.
    public static let allValueStrings = allCases.map(\.rawValue)

    /// Whether a failure is reported as one JSON object on stderr rather than as text.
    public var reportsErrorsAsJSON: Bool {
        self == .json || self == .jsonl
    }
}

/// The `--fields a,b,c` list: which fields to print, in that order, by their JSON names; a dot
/// reaches into a nested object (`creator.name`) or into each element of a list of objects.
public struct FieldList: ExpressibleByArgument, Sendable, Hashable {
    /// The fields as given, each split at its dots.
    public var paths: [[String]]

    /// The fields as given, e.g. `["id", "creator.name"]`.
    public var names: [String] { paths.map { $0.joined(separator: ".") } }

    /// Creates a list from dotted names.
    public init(_ names: [String]) {
        paths = names.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Parses `a,b,c`; spaces around names are ignored. An empty name or path segment, or a
    /// name given twice, fails parsing (exit 64).
    public init?(argument: String) {
        let names = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty, Set(names).count == names.count else { return nil }
        self.init(names)
        guard paths.allSatisfy({ path in path.allSatisfy { !$0.isEmpty } }) else { return nil }
    }
}
