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
/// inside quoted strings and inside `<…>`. Each link-value is checked on its own: one that does
/// not follow the grammar (junk before `<`, an empty or unclosed target, a malformed parameter,
/// an unterminated quoted string) or whose target is not a usable URI reference is skipped, and
/// the link-values after it are still read. A hostile or broken header gives fewer links
/// (possibly none), never a crash. A link whose `anchor` names another resource is about that
/// resource, not the response (RFC 8288 §3.2), and is skipped too.
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
            var linkValues = LinkValues(value)
            while links.count < maxLinks, let raw = linkValues.next() {
                guard let raw, isAbout(base, raw), let url = resolve(raw.target, base: base) else { continue }
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
            var linkValues = LinkValues(value)
            while read < maxLinks, let raw = linkValues.next() {
                read += 1
                guard let raw, raw.relations.contains(relation), isAbout(base, raw) else { continue }
                if let url = resolve(raw.target, base: base) { return url }
            }
        }
        return nil
    }

    /// Whether a link is about `base`: it has no `anchor`, or one that resolves to `base` itself
    /// (an empty anchor is the resource).
    private static func isAbout(_ base: URL, _ raw: RawLink) -> Bool {
        guard let anchor = raw.parameters["anchor"] else { return true }
        let text = trimmed(anchor)
        return text.isEmpty || resolve(text, base: base)?.absoluteString == base.absoluteURL.absoluteString
    }

    /// The target as an absolute URL, or `nil` when it is not a usable URI reference. An empty
    /// target (the resource itself) is not usable: as a `next` link it could only loop.
    static func resolve(_ target: String, base: URL) -> URL? {
        let trimmed = trimmed(target)
        guard !trimmed.isEmpty else { return nil }
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
}

extension HTTPField.Name {
    /// `Link` (RFC 8288), which carries pagination links.
    package static let link = constant("Link")
    /// `Refresh`, which may name a URL to load after a pause.
    package static let refresh = constant("Refresh")
}
