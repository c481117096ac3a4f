/// Control characters made visible, so text an API returned cannot drive the terminal it is
/// printed on: move the cursor, rewrite a line already shown, retitle the window or set the
/// clipboard.
///
/// Each C0 control and DEL is shown in caret notation (`ESC` as `^[`), and each C1 control as
/// the escape sequence it stands for (`CSI` as `^[[`). Line feeds, tabs and CRLF line ends stay,
/// since output is made of lines. A lone carriage return does not: it would let later text
/// overwrite a line already shown.
enum TerminalControls {
    /// `text` with its control characters shown.
    static func shown(_ text: String) -> String {
        guard text.utf8.contains(where: mayBeControl) else { return text }
        var shown = ""
        shown.reserveCapacity(text.utf8.count)
        for character in text {
            guard character != "\n", character != "\t", character != "\r\n",
                let scalar = character.unicodeScalars.first, scalar.properties.generalCategory == .control
            else {
                shown.append(character)
                continue
            }
            // A control is a character of its own (it never combines), so its one scalar says it all.
            switch scalar.value {
            case 0x80...0x9F:
                shown += "^[" + String(UnicodeScalar(UInt8(scalar.value - 0x40)))
            default:
                shown += "^" + String(UnicodeScalar(UInt8(truncatingIfNeeded: scalar.value ^ 0x40)))
            }
        }
        return shown
    }

    /// A UTF-8 byte that is a C0 control other than line feed and tab, DEL, or the lead byte of
    /// a C1 control.
    private static func mayBeControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F || byte == 0xC2
    }

    /// JSON text with its DEL and C1 controls written as `\u00XX` escapes: the same JSON to a
    /// parser, and nothing a terminal acts on. JSON has such characters only inside strings, and
    /// encoders escape the C0 ones already, so the text never needs ``shown(_:)``, whose caret
    /// notation would change the data (or, with `^[\`, end a string early).
    static func escapedInJSON(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x7F || $0 == 0xC2 }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                let digits = String(scalar.value, radix: 16)
                escaped += "\\u00" + (digits.count < 2 ? "0" : "") + digits
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
