public import Foundation
public import HTTPTypes

/// One link from a `Link` header (RFC 8288): a target and what it is to the current resource.
public struct Link: Sendable, Hashable {
    /// The target, resolved against the response's URL.
    public var target: URL
    /// The relation types from `rel`, lowercased (`rel="next last"` gives both).
    public var relations: Set<String>
    /// Every parameter by lowercased name, quotes and escapes removed; when a parameter
    /// repeats, the first occurrence wins (as RFC 8288 says for `rel`).
    public var parameters: [String: String]

    /// Creates a link.
    public init(target: URL, relations: Set<String>, parameters: [String: String] = [:]) {
        self.target = target
        self.relations = relations
        self.parameters = parameters
    }

    /// Whether the link has relation `relation` (compared case-insensitively).
    public func has(_ relation: String) -> Bool {
        relations.contains(relation.lowercased())
    }
}

extension Array where Element == Link {
    /// The first link with relation `next`.
    public var next: Link? { first { $0.relations.contains("next") } }

    /// The first link with relation `relation` (compared case-insensitively).
    public func first(relation: String) -> Link? {
        let relation = relation.lowercased()
        return first { $0.relations.contains(relation) }
    }
}

/// Parses `Link` header fields (RFC 8288 §3).
///
/// Handles several links per field and across repeated fields, quoted and unquoted
/// parameters, `rel` lists, relative targets, optional whitespace, and commas or semicolons
/// inside quoted strings and inside `<…>`. Anything unparseable is skipped: a hostile or broken
/// header gives fewer links (possibly none), never a crash.
///
/// ```swift
/// let links = LinkHeader.parse(in: response.headers, base: response.url)
/// if let next = links.next?.target { … }
/// ```
public enum LinkHeader {
    /// The most links read from one response, so a hostile header cannot make a huge array.
    public static let maxLinks = 1000

    /// The links in `values` (each a `Link` field value), targets resolved against `base`.
    public static func parse(_ values: [String], base: URL) -> [Link] {
        var links: [Link] = []
        for value in values {
            var scanner = Scanner(value)
            while links.count < maxLinks, let link = scanner.nextLink(base: base) {
                if let link { links.append(link) }
            }
        }
        return links
    }

    /// The links in a response's `Link` header fields, targets resolved against `base`.
    public static func parse(in headers: HTTPFields, base: URL) -> [Link] {
        parse(headers[values: .link], base: base)
    }

    /// The `next` link's target in `values`, resolved against `base`.
    public static func next(_ values: [String], base: URL) -> URL? {
        parse(values, base: base).next?.target
    }

    /// The `next` link's target in a response's headers.
    public static func next(in headers: HTTPFields, base: URL) -> URL? {
        next(headers[values: .link], base: base)
    }

    /// A cursor over one field value's Unicode scalars.
    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var position = 0

        init(_ text: String) {
            scalars = Array(text.unicodeScalars)
        }

        var atEnd: Bool { position >= scalars.count }
        var current: Unicode.Scalar? { atEnd ? nil : scalars[position] }

        mutating func skipWhitespace() {
            while let scalar = current, scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n" {
                position += 1
            }
        }

        /// The next link-value: `.some(link)` for a good one, `.some(nil)` for one skipped as
        /// garbage, `nil` at the end.
        mutating func nextLink(base: URL) -> Link?? {
            while true {
                skipWhitespace()
                guard let scalar = current else { return nil }
                if scalar == "," {
                    position += 1
                    continue
                }
                guard scalar == "<" else {
                    skipToNextValue()
                    return .some(nil)
                }
                position += 1
                let targetStart = position
                while let scalar = current, scalar != ">" { position += 1 }
                // No closing ">" means the rest cannot be split reliably: stop here.
                guard !atEnd else { return nil }
                let target = String(String.UnicodeScalarView(scalars[targetStart..<position]))
                position += 1
                let parameters = readParameters()
                guard let url = Self.resolve(target, base: base) else { return .some(nil) }
                let relations = Set(
                    (parameters["rel"] ?? "")
                        .split(whereSeparator: { $0 == " " || $0 == "\t" })
                        .map { $0.lowercased() }
                )
                return .some(Link(target: url, relations: relations, parameters: parameters))
            }
        }

        /// `*( OWS ";" OWS link-param )`, up to the comma that ends the link-value.
        mutating func readParameters() -> [String: String] {
            var parameters: [String: String] = [:]
            while true {
                skipWhitespace()
                guard let scalar = current else { return parameters }
                if scalar == "," {
                    position += 1
                    return parameters
                }
                guard scalar == ";" else {
                    // Junk between parameters: skip it, keeping quoted strings intact.
                    if scalar == "\"" { _ = readQuoted() } else { position += 1 }
                    continue
                }
                position += 1
                skipWhitespace()
                let name = readToken().lowercased()
                skipWhitespace()
                var value = ""
                if current == "=" {
                    position += 1
                    skipWhitespace()
                    value = current == "\"" ? readQuoted() : readToken()
                }
                if !name.isEmpty, parameters[name] == nil {
                    parameters[name] = name.hasSuffix("*") ? Self.decodeExtended(value) : value
                }
            }
        }

        /// Characters up to whitespace or a delimiter.
        mutating func readToken() -> String {
            let start = position
            while let scalar = current,
                !(scalar == ";" || scalar == "," || scalar == "=" || scalar == " " || scalar == "\t"
                    || scalar == "\"" || scalar == "<" || scalar == ">")
            {
                position += 1
            }
            return String(String.UnicodeScalarView(scalars[start..<position]))
        }

        /// A quoted string with backslash escapes; an unterminated one runs to the end.
        mutating func readQuoted() -> String {
            position += 1
            var result = String.UnicodeScalarView()
            while let scalar = current {
                position += 1
                if scalar == "\"" { break }
                if scalar == "\\", let escaped = current {
                    position += 1
                    result.append(escaped)
                } else {
                    result.append(scalar)
                }
            }
            return String(result)
        }

        /// Skips a broken link-value up to the next top-level comma.
        mutating func skipToNextValue() {
            while let scalar = current {
                if scalar == "," {
                    position += 1
                    return
                }
                if scalar == "\"" {
                    _ = readQuoted()
                } else if scalar == "<" {
                    while let inner = current, inner != ">" { position += 1 }
                    if !atEnd { position += 1 }
                } else {
                    position += 1
                }
            }
        }

        /// The target as an absolute URL, or `nil` when it is not a usable URI reference.
        static func resolve(_ target: String, base: URL) -> URL? {
            let trimmed = target.trimmingCharacters(in: .whitespaces)
            // An empty reference is the resource itself (RFC 3986 §4.4).
            if trimmed.isEmpty { return base.absoluteURL }
            // Checked here rather than left to `URL(string:)`, which on some platforms quietly
            // percent-encodes what RFC 3986 forbids instead of rejecting it.
            guard trimmed.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f && !forbidden.contains($0) })
            else { return nil }
            guard let url = URL(string: trimmed, relativeTo: base)?.absoluteURL, url.scheme != nil else { return nil }
            return url
        }

        /// ASCII characters that may not appear unencoded in a URI reference.
        static let forbidden: Set<Unicode.Scalar> = ["<", ">", "\"", "{", "}", "|", "\\", "^", "`"]

        /// An RFC 8187 extended value (`UTF-8''%e2%82%ac`), or the raw value if it is not one.
        static func decodeExtended(_ value: String) -> String {
            let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].lowercased() == "utf-8" else { return value }
            return String(parts[2]).removingPercentEncoding ?? value
        }
    }
}

extension HTTPField.Name {
    /// `Link` (RFC 8288), which carries pagination links.
    package static let link = constant("Link")
}
