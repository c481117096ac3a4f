/// Writes a ``JSONValue`` as compact JSON text: the bytes `JSONEncoder` writes with
/// `[.sortedKeys, .withoutEscapingSlashes]` (keys in the order of their UTF-8 bytes), without
/// its `Encodable` pass, which is most of the cost of a sandbox page or a printed list.
///
/// A number JSON cannot express (infinite or NaN) is written as `null`.
struct JSONValueWriter {
    /// `JSONEncoder` refuses to nest containers this deep, so `encoded()` is `null` there too.
    static let maximumDepth = 512

    private var bytes: [UInt8] = []

    /// The JSON text of `value`, or `nil` when its containers nest ``maximumDepth`` deep.
    static func bytes(of value: JSONValue) -> [UInt8]? {
        var writer = JSONValueWriter()
        guard writer.write(value, depth: 0) else { return nil }
        return writer.bytes
    }

    private mutating func write(_ value: JSONValue, depth: Int) -> Bool {
        switch value {
        case .null:
            bytes.append(contentsOf: "null".utf8)
        case .bool(let value):
            bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value):
            bytes.append(contentsOf: String(value).utf8)
        case .number(let value):
            writeNumber(value)
        case .string(let value):
            writeString(value)
        case .array(let elements):
            guard depth + 1 < Self.maximumDepth else { return false }
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                guard write(element, depth: depth + 1) else { return false }
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            guard depth + 1 < Self.maximumDepth else { return false }
            bytes.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                guard write(member.value, depth: depth + 1) else { return false }
            }
            bytes.append(UInt8(ascii: "}"))
        }
        return true
    }

    /// The shortest text that reads back as the same double, without a trailing `.0`.
    private mutating func writeNumber(_ value: Double) {
        guard value.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        // Most strings need no escape: their bytes go in as one run.
        string.withUTF8 { utf8 in
            guard utf8.contains(where: Self.needsEscape) else { return bytes.append(contentsOf: utf8) }
            for byte in utf8 { writeEscaped(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func writeEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
        case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x00..<0x20:
            bytes.append(contentsOf: Array("\\u00".utf8) + [Self.hex(byte >> 4), Self.hex(byte & 0xF)])
        default: bytes.append(byte)
        }
    }

    private static func hex(_ digit: UInt8) -> UInt8 {
        digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
    }
}
