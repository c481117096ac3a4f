import Foundation

extension LinkHeader {
    /// A link-value as written: its target not yet resolved.
    struct RawLink {
        var target: String
        var relations: Set<String>
        var parameters: [String: String]
    }

    /// Reads one field value link-value by link-value (RFC 8288 §3): first finds where each
    /// link-value ends, then checks it against the grammar on its own, so a malformed one
    /// (junk before `<`, an unclosed target, a bad parameter) is skipped without hiding the
    /// ones after it.
    ///
    /// Works on UTF-8 bytes: every delimiter is ASCII and no byte of a multi-byte character is,
    /// so cutting at delimiters never splits a character.
    struct LinkValues {
        private let bytes: [UInt8]
        private var position = 0

        init(_ fieldValue: String) {
            bytes = Array(fieldValue.utf8)
        }

        /// The next link-value: `.some(link)` for a well-formed one, `.some(nil)` for one that
        /// is skipped, `nil` at the end.
        mutating func next() -> RawLink?? {
            while position < bytes.count {
                let range = position..<endOfValue(from: position)
                position = range.upperBound + 1
                if range.allSatisfy({ Self.isWhitespace(bytes[$0]) }) { continue }
                var grammar = LinkValueGrammar(bytes[range])
                return .some(grammar.parse())
            }
            return nil
        }

        /// Where the link-value starting at `start` ends: the first comma outside a quoted string
        /// and outside a `<…>` target. A `<` opens a target only if a `>` closes it (see
        /// `closingBracket(after:)`); otherwise it is an ordinary (invalid) byte, so an unclosed
        /// target cannot swallow the link-values after it.
        private func endOfValue(from start: Int) -> Int {
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","):
                    return index
                case UInt8(ascii: "\""):
                    index = Self.scanQuoted(bytes[...], from: index).end
                case UInt8(ascii: "<"):
                    index = closingBracket(after: index) ?? index + 1
                default:
                    index += 1
                }
            }
            return bytes.count
        }

        /// The index just past the `>` that closes the target opened at `open`, if one does: the
        /// first `>` before the next `<` and, once the target has run past a comma, before the
        /// next `"`. A quote after a comma belongs to a later link-value's parameter (`"a>b"`); a
        /// target closed at a `>` inside it would turn its closing quote into an opening one that
        /// swallows the link-values after it.
        private func closingBracket(after open: Int) -> Int? {
            var index = open + 1
            var pastComma = false
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ">"): return index + 1
                case UInt8(ascii: "<"): return nil
                case UInt8(ascii: "\"") where pastComma: return nil
                case UInt8(ascii: ","): pastComma = true
                default: break
                }
                index += 1
            }
            return nil
        }

        /// The index just past the quoted string that starts at `open`, and whether a closing
        /// quote ended it (an unterminated one runs to the end).
        static func scanQuoted(_ bytes: ArraySlice<UInt8>, from open: Int) -> (end: Int, terminated: Bool) {
            var index = open + 1
            while index < bytes.endIndex {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") { return (index, true) }
                if byte == UInt8(ascii: "\\"), index < bytes.endIndex { index += 1 }
            }
            return (bytes.endIndex, false)
        }

        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\n")
        }
    }

    /// One link-value checked against
    /// `OWS "<" target ">" *( OWS ";" OWS [ token BWS [ "=" BWS ( value / quoted-string ) ] ] ) OWS`.
    ///
    /// Lenient only where nothing can be misread: whitespace around the target inside `<…>`,
    /// empty parameters (`;;`), bytes above 0x7f in tokens, and unquoted values that are any
    /// visible characters but the delimiters (`type=application/json`, as servers send it).
    private struct LinkValueGrammar {
        let bytes: ArraySlice<UInt8>
        var position: Int

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            self.position = bytes.startIndex
        }

        var current: UInt8? { position < bytes.endIndex ? bytes[position] : nil }

        mutating func parse() -> RawLink? {
            skipWhitespace()
            guard current == UInt8(ascii: "<") else { return nil }
            position += 1
            let targetStart = position
            while let byte = current, byte != UInt8(ascii: ">") {
                if byte == UInt8(ascii: "<") { return nil }
                position += 1
            }
            guard current == UInt8(ascii: ">") else { return nil }
            let target = text(targetStart..<position)
            position += 1
            var parameters: [String: String] = [:]
            while true {
                skipWhitespace()
                guard let byte = current else { break }
                guard byte == UInt8(ascii: ";") else { return nil }
                position += 1
                skipWhitespace()
                guard let byte = current, byte != UInt8(ascii: ";") else { continue }
                guard Self.isTokenByte(byte), let (name, value) = parameter() else { return nil }
                if parameters[name] == nil {
                    parameters[name] = name.hasSuffix("*") ? Self.decodeExtended(value) : value
                }
            }
            let relations = Set(
                (parameters["rel"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
            )
            return RawLink(target: target, relations: relations, parameters: parameters)
        }

        /// `token BWS [ "=" BWS ( token / quoted-string ) ]`, the name lowercased.
        private mutating func parameter() -> (String, String)? {
            let name = token().lowercased()
            skipWhitespace()
            guard current == UInt8(ascii: "=") else { return (name, "") }
            position += 1
            skipWhitespace()
            switch current {
            case UInt8(ascii: "\"")?:
                return quoted().map { (name, $0) }
            case let byte? where Self.isValueByte(byte):
                let start = position
                while let byte = current, Self.isValueByte(byte) { position += 1 }
                return (name, text(start..<position))
            default:
                return nil
            }
        }

        private mutating func token() -> String {
            let start = position
            while let byte = current, Self.isTokenByte(byte) { position += 1 }
            return text(start..<position)
        }

        /// A terminated quoted string with backslash escapes, unquoted; `nil` when it runs to the
        /// end. An escaped multi-byte character keeps its later bytes, which are never `"` or `\`.
        private mutating func quoted() -> String? {
            let (end, terminated) = LinkValues.scanQuoted(bytes, from: position)
            guard terminated else { return nil }
            var result: [UInt8] = []
            var index = position + 1
            while index < end - 1 {
                if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                result.append(bytes[index])
                index += 1
            }
            position = end
            return String(decoding: result, as: UTF8.self)
        }

        private mutating func skipWhitespace() {
            while let byte = current, LinkValues.isWhitespace(byte) { position += 1 }
        }

        private func text(_ range: Range<Int>) -> String {
            String(decoding: bytes[range], as: UTF8.self)
        }

        /// `tchar` (RFC 9110 §5.6.2), plus bytes above 0x7f, which some servers send unquoted.
        static func isTokenByte(_ byte: UInt8) -> Bool {
            if byte >= 0x80 { return true }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
                UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
                return true
            default:
                return false
            }
        }

        /// A byte of an unquoted value: visible ASCII but `"`, `,`, `;`, `<`, `>` and `\`, or a
        /// byte above 0x7f.
        static func isValueByte(_ byte: UInt8) -> Bool {
            if byte >= 0x80 { return true }
            guard byte > 0x20, byte < 0x7f else { return false }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "<"), UInt8(ascii: ">"),
                UInt8(ascii: "\\"):
                return false
            default:
                return true
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
