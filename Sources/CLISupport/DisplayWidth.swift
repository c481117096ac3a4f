/// How many terminal columns text takes: East Asian wide and fullwidth characters and emoji take
/// two, combining marks and other zero-width characters none, everything else one.
///
/// Widths are worked out per character (grapheme cluster), as terminals draw them: a letter with
/// combining accents is one column, a flag or a family emoji two.
public enum DisplayWidth {
    /// The columns `text` takes.
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character takes: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        // Printable ASCII is most of what a tool prints, and always one column.
        if let ascii = character.asciiValue, (0x20..<0x7F).contains(ascii) { return 1 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first(where: { !isZeroWidth($0) }) else { return 0 }
        if scalars.contains(where: { $0.value == 0xFE0F }) || first.properties.isEmojiPresentation {
            return 2
        }
        if scalars.count > 1, first.properties.isEmoji, scalars.contains(where: { isEmojiModifierOrJoiner($0) }) {
            return 2
        }
        return isWide(first) ? 2 : 1
    }

    /// The longest prefix of `text` that fits in `width` columns, with `…` as its last column
    /// when `text` had to be cut.
    public static func truncate(_ text: String, toFit width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    private static func isEmojiModifierOrJoiner(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x200D || scalar.properties.isEmojiModifier
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return true
        default:
            // Hangul medial vowels and final consonants join the syllable before them.
            return (0x1160...0x11FF).contains(scalar.value)
        }
    }

    /// The East Asian Wide (W) and Fullwidth (F) ranges that are not emoji (emoji are recognised
    /// by their presentation property).
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return wideRanges.contains { $0.contains(value) }
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2329...0x232A,  // angle brackets
        0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small forms
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x16FE4,  // ideographic symbols
        0x17000...0x18CFF,  // Tangut
        0x1B000...0x1B2FF,  // Kana supplement and extensions
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK extensions B to F
        0x30000...0x3FFFD,  // CJK extension G and later
    ]
}
