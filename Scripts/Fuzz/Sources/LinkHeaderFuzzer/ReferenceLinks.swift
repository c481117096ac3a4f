import Foundation

/// A deliberately plain reading of RFC 8288 §3 to check `LinkHeader` against: split each field
/// value into link-values, then match each one on its own against the grammar with a regular
/// expression. Slow and obvious where the parser is a byte scanner; the two must agree on every
/// input.
enum ReferenceLinks {
    /// The links as "target rel1 rel2 | name=value …", in order.
    static func parse(_ values: [String], base: URL) -> [String] {
        // Regex is not Sendable, so the expressions are compiled per call rather than kept static.
        guard let grammar = try? Grammar() else { return [] }
        return values.flatMap(split).compactMap { link(in: $0, base: base, grammar: grammar) }
    }

    /// The link-values of one field: cut at commas outside quoted strings and outside `<…>`; a
    /// `<` opens a target only when a `>` comes before the next `<` and, past a comma, before
    /// the next `"`.
    static func split(_ value: String) -> [String] {
        let scalars = Array(value.unicodeScalars)
        var pieces: [String] = []
        var current = String.UnicodeScalarView()
        var index = 0
        var inQuotes = false
        while index < scalars.count {
            let scalar = scalars[index]
            if inQuotes {
                current.append(scalar)
                if scalar == "\\", index + 1 < scalars.count {
                    current.append(scalars[index + 1])
                    index += 1
                } else if scalar == "\"" {
                    inQuotes = false
                }
            } else if scalar == "," {
                pieces.append(String(current))
                current = String.UnicodeScalarView()
            } else if scalar == "<", let close = closingBracket(scalars, after: index) {
                current.append(contentsOf: scalars[index...close])
                index = close
            } else {
                current.append(scalar)
                inQuotes = scalar == "\""
            }
            index += 1
        }
        pieces.append(String(current))
        return pieces.filter { !$0.unicodeScalars.allSatisfy(isWhitespace) }
    }

    /// Where the target opened at `open` closes: the first `>`, unless a `<` comes first, or a
    /// `"` after a comma.
    private static func closingBracket(_ scalars: [Unicode.Scalar], after open: Int) -> Int? {
        let rest = scalars[(open + 1)...]
        guard let close = rest.firstIndex(where: { $0 == "<" || $0 == ">" }), scalars[close] == ">" else { return nil }
        if let comma = rest.firstIndex(of: ","), comma < close,
            scalars[comma..<close].contains("\"")
        {
            return nil
        }
        return close
    }

    private static let whitespace = #"[ \t\r\n]*"#
    private static let token = #"[!#$%&'*+\-.^_`|~0-9A-Za-z\x{80}-\x{10FFFF}]+"#
    private static let quoted = #""(?:[^"\\]|\\[\s\S])*""#
    private static let value = #"[!#$%&'()*+\-./0-9:=?@A-Z\[\]^_`a-z{|}~\x{80}-\x{10FFFF}]+"#
    private static let parameter = "\(token)\(whitespace)(?:=\(whitespace)(?:\(value)|\(quoted)))?"
    /// The link-value and parameter expressions, compiled.
    private struct Grammar {
        let linkValue: Regex<AnyRegexOutput>
        let oneParameter: Regex<AnyRegexOutput>

        init() throws {
            linkValue = try Regex(
                "\(whitespace)<([^<>]*)>((?:\(whitespace);\(whitespace)(?:\(parameter))?)*)\(whitespace)"
            )
            .matchingSemantics(.unicodeScalar)
            oneParameter = try Regex(
                "\(whitespace);\(whitespace)(?:(\(token))\(whitespace)(?:=\(whitespace)(\(value)|\(quoted)))?)?"
            )
            .matchingSemantics(.unicodeScalar)
        }
    }

    /// The link in one link-value, or `nil` when it does not match the grammar or its target is
    /// unusable.
    private static func link(in piece: String, base: URL, grammar: Grammar) -> String? {
        guard let match = try? grammar.linkValue.wholeMatch(in: piece),
            let targetText = match.output[1].substring, let parameterText = match.output[2].substring
        else { return nil }
        var parameters: [(String, String)] = []
        for found in String(parameterText).matches(of: grammar.oneParameter) {
            guard let name = found.output[1].substring else { continue }
            let key = name.lowercased()
            var value = found.output[2].substring.map(String.init) ?? ""
            if value.hasPrefix("\"") { value = unquote(value) }
            if key.hasSuffix("*") { value = decodeExtended(value) }
            if !parameters.contains(where: { $0.0 == key }) { parameters.append((key, value)) }
        }
        let target = String(targetText).trimmingCharacters(in: .whitespaces)
        guard !target.isEmpty,
            target.unicodeScalars.allSatisfy({
                $0.value > 0x20 && $0.value != 0x7f && !#"<>"{}|\^`"#.unicodeScalars.contains($0)
            }),
            let url = URL(string: target, relativeTo: base)?.absoluteURL, url.scheme != nil
        else { return nil }
        let relations = Set(
            (parameters.first { $0.0 == "rel" }?.1 ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" })
                .map { $0.lowercased() }
        )
        let shown = parameters.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }
        return ([url.absoluteString] + relations.sorted() + ["|"] + shown).joined(separator: " ")
    }

    private static func unquote(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var escaped = false
        for scalar in text.unicodeScalars.dropFirst().dropLast() {
            if !escaped, scalar == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(scalar)
        }
        return String(result)
    }

    private static func decodeExtended(_ value: String) -> String {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].lowercased() == "utf-8" else { return value }
        return String(parts[2]).removingPercentEncoding ?? value
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n"
    }
}
