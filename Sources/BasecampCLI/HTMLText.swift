/// Basecamp's rich text (HTML such as `<div>Great <strong>news</strong>!</div>`) as plain text on
/// one line, for table cells: tags dropped (one that starts or ends a block, or a line break,
/// leaves a space; inline ones such as `<strong>` nothing), entities decoded, runs of whitespace
/// made one space. Text without tags passes through unchanged, and a `<` that cannot start a tag
/// (`a < b`) is kept.
enum HTMLText {
    /// Tags that only style text; every other tag separates words.
    private static let inlineTags: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "del", "em", "i", "ins", "kbd", "mark", "q", "s", "small",
        "span", "strike", "strong", "sub", "sup", "u", "var",
    ]

    static func plain(_ html: String) -> String {
        var text = ""
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let end = tagEnd(in: html, from: index) {
                let name = html[html.index(after: index)..<end]
                    .drop { $0 == "/" }
                    .prefix { $0.isLetter || $0.isNumber || $0 == "-" }
                    .lowercased()
                if !inlineTags.contains(name) { text.append(" ") }
                index = html.index(after: end)
                continue
            }
            if character == "&", let (decoded, end) = entity(in: html, from: index) {
                text.append(decoded)
                index = html.index(after: end)
                continue
            }
            text.append(character)
            index = html.index(after: index)
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The `>` closing a tag that starts at `start`, when `<` is followed by a letter, `/` or `!`.
    private static func tagEnd(in html: String, from start: String.Index) -> String.Index? {
        let next = html.index(after: start)
        guard next < html.endIndex, html[next].isLetter || html[next] == "/" || html[next] == "!" else { return nil }
        return html[next...].firstIndex(of: ">")
    }

    private static let named: [Substring: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "hellip": "…", "mdash": "—",
        "ndash": "–", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“",
    ]

    /// The character an entity at `start` (`&amp;`, `&#39;`, `&#x2019;`) stands for, and its `;`.
    private static func entity(in html: String, from start: String.Index) -> (String, String.Index)? {
        let body = html[html.index(after: start)...]
        guard let semicolon = body.prefix(10).firstIndex(of: ";") else { return nil }
        let name = body[..<semicolon]
        if let text = named[name] { return (text, semicolon) }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value =
            digits.first == "x" || digits.first == "X"
            ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let value, let scalar = Unicode.Scalar(value) else { return nil }
        return (String(Character(scalar)), semicolon)
    }
}
