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
            while links.count < maxLinks, let raw = scanner.nextLink() {
                guard let raw, let url = Scanner.resolve(raw.target, base: base) else { continue }
                links.append(Link(target: url, relations: raw.relations, parameters: raw.parameters))
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
        target(of: "next", in: values, base: base)
    }

    /// The `next` link's target in a response's headers.
    public static func next(in headers: HTTPFields, base: URL) -> URL? {
        next(headers[values: .link], base: base)
    }

    /// The target of the first link with `relation` (lowercase) that resolves against `base`,
    /// as `parse(values, base: base).first(relation:)` finds it, without resolving the other
    /// links' targets, which is most of parsing's cost. Reads at most ``maxLinks`` link-values.
    static func target(of relation: String, in values: [String], base: URL) -> URL? {
        var read = 0
        for value in values {
            var scanner = Scanner(value)
            while read < maxLinks, let raw = scanner.nextLink() {
                read += 1
                guard let raw, raw.relations.contains(relation) else { continue }
                if let url = Scanner.resolve(raw.target, base: base) { return url }
            }
        }
        return nil
    }

    /// A link-value as written: its target not yet resolved.
    private struct RawLink {
        var target: String
        var relations: Set<String>
        var parameters: [String: String]
    }

    /// A cursor over one field value's UTF-8 bytes. Every delimiter is ASCII, and no byte of a
    /// multi-byte UTF-8 character is, so cutting at delimiters never splits a character.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ text: String) {
            bytes = Array(text.utf8)
        }

        var atEnd: Bool { position >= bytes.count }
        var current: UInt8? { atEnd ? nil : bytes[position] }

        mutating func skipWhitespace() {
            while let byte = current, Self.isWhitespace(byte) {
                position += 1
            }
        }

        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\n")
        }

        func text(_ range: Range<Int>) -> String {
            String(decoding: bytes[range], as: UTF8.self)
        }

        /// The next link-value: `.some(link)` for a good one, `.some(nil)` for one skipped as
        /// garbage, `nil` at the end.
        mutating func nextLink() -> RawLink?? {
            while true {
                skipWhitespace()
                guard let byte = current else { return nil }
                if byte == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard byte == UInt8(ascii: "<") else {
                    skipToNextValue()
                    return .some(nil)
                }
                position += 1
                let targetStart = position
                while let byte = current, byte != UInt8(ascii: ">") { position += 1 }
                // No closing ">" means the rest cannot be split reliably: stop here.
                guard !atEnd else { return nil }
                let target = text(targetStart..<position)
                position += 1
                let parameters = readParameters()
                let relations = Set(
                    (parameters["rel"] ?? "")
                        .split(whereSeparator: { $0 == " " || $0 == "\t" })
                        .map { $0.lowercased() }
                )
                return .some(RawLink(target: target, relations: relations, parameters: parameters))
            }
        }

        /// `*( OWS ";" OWS link-param )`, up to the comma that ends the link-value.
        mutating func readParameters() -> [String: String] {
            var parameters: [String: String] = [:]
            while true {
                skipWhitespace()
                guard let byte = current else { return parameters }
                if byte == UInt8(ascii: ",") {
                    position += 1
                    return parameters
                }
                guard byte == UInt8(ascii: ";") else {
                    // Junk between parameters: skip it, keeping quoted strings intact.
                    if byte == UInt8(ascii: "\"") { _ = readQuoted() } else { position += 1 }
                    continue
                }
                position += 1
                skipWhitespace()
                let name = readToken().lowercased()
                skipWhitespace()
                var value = ""
                if current == UInt8(ascii: "=") {
                    position += 1
                    skipWhitespace()
                    value = current == UInt8(ascii: "\"") ? readQuoted() : readToken()
                }
                if !name.isEmpty, parameters[name] == nil {
                    parameters[name] = name.hasSuffix("*") ? Self.decodeExtended(value) : value
                }
            }
        }

        /// Characters up to whitespace or a delimiter.
        mutating func readToken() -> String {
            let start = position
            while let byte = current, !Self.endsToken(byte) {
                position += 1
            }
            return text(start..<position)
        }

        static func endsToken(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "="), UInt8(ascii: " "), UInt8(ascii: "\t"),
                UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"):
                true
            default:
                false
            }
        }

        /// A quoted string with backslash escapes; an unterminated one runs to the end. An
        /// escaped multi-byte character keeps its later bytes, which are never `"` or `\`.
        mutating func readQuoted() -> String {
            position += 1
            var result: [UInt8] = []
            while let byte = current {
                position += 1
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\"), let escaped = current {
                    position += 1
                    result.append(escaped)
                } else {
                    result.append(byte)
                }
            }
            return String(decoding: result, as: UTF8.self)
        }

        /// Skips a broken link-value up to the next top-level comma.
        mutating func skipToNextValue() {
            while let byte = current {
                if byte == UInt8(ascii: ",") {
                    position += 1
                    return
                }
                if byte == UInt8(ascii: "\"") {
                    _ = readQuoted()
                } else if byte == UInt8(ascii: "<") {
                    while let inner = current, inner != UInt8(ascii: ">") { position += 1 }
                    if !atEnd { position += 1 }
                } else {
                    position += 1
                }
            }
        }

        /// The target as an absolute URL, or `nil` when it is not a usable URI reference.
        static func resolve(_ target: String, base: URL) -> URL? {
            let trimmed = trimmed(target)
            // An empty reference is the resource itself (RFC 3986 §4.4).
            if trimmed.isEmpty { return base.absoluteURL }
            // Checked here rather than left to `URL(string:)`, which on some platforms quietly
            // percent-encodes what RFC 3986 forbids instead of rejecting it. Bytes of non-ASCII
            // characters are all above 0x7f, so they pass as the characters did.
            guard trimmed.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7f && !isForbidden($0) }) else { return nil }
            guard let url = URL(string: trimmed, relativeTo: base)?.absoluteURL, url.scheme != nil else { return nil }
            return url
        }

        /// `target` without surrounding whitespace (Unicode spaces included), skipping
        /// Foundation's trim when both ends are plainly not whitespace.
        private static func trimmed(_ target: String) -> String {
            guard let first = target.utf8.first, let last = target.utf8.last else { return target }
            func plain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x80 }
            if plain(first), plain(last) { return target }
            return target.trimmingCharacters(in: .whitespaces)
        }

        /// ASCII characters that may not appear unencoded in a URI reference.
        private static func isForbidden(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "}"),
                UInt8(ascii: "|"), UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(ascii: "`"):
                true
            default:
                false
            }
        }

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
