/// Accumulates Swift source with four-space indentation.
struct CodeWriter {
    private(set) var text = ""
    private var level = 0

    mutating func line(_ content: String = "") {
        if content.isEmpty {
            text += "\n"
        } else {
            text += String(repeating: "    ", count: level) + content + "\n"
        }
    }

    /// Writes `content` as `///` lines, wrapping long lines at word boundaries so every line
    /// stays within 120 columns (list items continue indented under their text).
    mutating func doc(_ content: String) {
        let width = 120 - level * 4 - 4
        for part in content.split(separator: "\n", omittingEmptySubsequences: false) {
            guard !part.isEmpty else {
                line("///")
                continue
            }
            let leading = String(part.prefix { $0 == " " })
            let continuation = part.dropFirst(leading.count).hasPrefix("- ") ? leading + "  " : leading
            var current = ""
            for word in part.dropFirst(leading.count).split(separator: " ") {
                if current.isEmpty {
                    current = leading + word
                } else if current.count + 1 + word.count <= width {
                    current += " " + word
                } else {
                    line("/// " + current)
                    current = continuation + word
                }
            }
            line("/// " + current)
        }
    }

    mutating func block(_ opener: String, _ body: (inout CodeWriter) -> Void) {
        line(opener + " {")
        level += 1
        body(&self)
        level -= 1
        line("}")
    }

    mutating func indent(_ body: (inout CodeWriter) -> Void) {
        level += 1
        body(&self)
        level -= 1
    }
}

/// A Swift string literal for `text`.
func literal(_ text: String) -> String {
    var escaped = ""
    for character in text {
        switch character {
        case "\\": escaped += "\\\\"
        case "\"": escaped += "\\\""
        case "\n": escaped += "\\n"
        default: escaped.append(character)
        }
    }
    return "\"" + escaped + "\""
}
