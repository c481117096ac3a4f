/// A pattern over event kinds: `*` stands for any run of characters (including none) and every
/// other character stands for itself, so `todo_*` matches `todo_created` and `*_created`
/// matches `comment_created`. Matching is exact and case-sensitive.
public struct WebhookKindPattern: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// Every kind.
    public static let any = WebhookKindPattern("*")

    /// The pattern as written.
    public let text: String
    private let pieces: [[UInt8]]

    /// A pattern from its text.
    public init(_ text: String) {
        self.text = text
        pieces = text.utf8.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
    }

    /// A pattern from a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Whether `kind` matches: the first piece starts it, the last ends it, the ones between
    /// appear in order.
    public func matches(_ kind: String) -> Bool {
        let bytes = Array(kind.utf8)
        guard pieces.count > 1 else { return bytes == pieces[0] }
        guard let first = pieces.first, let last = pieces.last,
            bytes.count >= first.count + last.count,
            bytes.starts(with: first), bytes.reversed().starts(with: last.reversed())
        else { return false }
        var position = first.count
        let end = bytes.count - last.count
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = Self.find(piece, in: bytes, from: position, before: end) else { return false }
            position = found + piece.count
        }
        return true
    }

    /// The pattern as written.
    public var description: String { text }

    private static func find(_ piece: [UInt8], in bytes: [UInt8], from start: Int, before end: Int) -> Int? {
        guard end - start >= piece.count else { return nil }
        for index in start...(end - piece.count) where bytes[index..<(index + piece.count)].elementsEqual(piece) {
            return index
        }
        return nil
    }

    /// Equal when written the same way.
    public static func == (lhs: WebhookKindPattern, rhs: WebhookKindPattern) -> Bool { lhs.text == rhs.text }

    /// Hashes the text.
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
