import Foundation

/// The text rules of RFC 5545: escaped values, content lines folded at 75 octets, CRLF endings.
struct ICalendarText {
    /// The longest a line may be, in octets, without its CRLF.
    static let maximumLineOctets = 75

    private(set) var text = ""

    /// Appends `NAME[;PARAMS]:VALUE` as it stands (the value already in the property's format),
    /// folded.
    mutating func line(_ name: String, parameters: [(String, String)] = [], _ value: String) {
        var line = name
        for (parameter, parameterValue) in parameters {
            line += ";\(parameter)=\(Self.parameterValue(parameterValue))"
        }
        line += ":" + value
        text += Self.fold(line)
    }

    /// Appends a TEXT property, escaped; nothing when the value is empty after trimming.
    mutating func textLine(_ name: String, _ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return }
        line(name, Self.escaped(trimmed))
    }

    /// A TEXT value escaped: `\` `;` `,` get a backslash, line breaks become `\n`, and other
    /// control characters (which TEXT cannot hold) are dropped.
    static func escaped(_ value: String) -> String {
        var result = ""
        var previousWasCR = false
        for scalar in value.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\r": result += "\\n"
            case "\n": if !previousWasCR { result += "\\n" }
            case "\t": result.unicodeScalars.append(scalar)
            default:
                if scalar.properties.generalCategory == .control { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A parameter value, quoted when it holds `:`, `;` or `,`; quotes (which cannot be escaped)
    /// are dropped.
    static func parameterValue(_ value: String) -> String {
        let clean = value.filter { $0 != "\"" && !$0.isNewline }
        return clean.contains(where: { ":;,".contains($0) }) ? "\"\(clean)\"" : clean
    }

    /// The line folded so no line exceeds 75 octets: each continuation starts with a space, and
    /// no character (or, for a single character longer than a line, no UTF-8 sequence) is split.
    static func fold(_ line: String) -> String {
        var result = ""
        var current = 0
        func breakLine() {
            result += "\r\n "
            current = 1
        }
        for character in line {
            let octets = character.utf8.count
            if current + octets <= maximumLineOctets {
                result.append(character)
                current += octets
                continue
            }
            if octets <= maximumLineOctets - 1 {
                breakLine()
                result.append(character)
                current += octets
                continue
            }
            for scalar in character.unicodeScalars {
                let scalarOctets = String(scalar).utf8.count
                if current + scalarOctets > maximumLineOctets { breakLine() }
                result.unicodeScalars.append(scalar)
                current += scalarOctets
            }
        }
        return result + "\r\n"
    }
}
