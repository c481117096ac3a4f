import Foundation

/// Reads UTF-8 JSON text (RFC 8259) into a ``JSONValue`` in one pass.
///
/// `JSONValue`'s `Decodable` conformance cannot ask a decoder what kind of value comes next, so it
/// tries each kind in turn and every miss throws an error; an object costs six. This reader looks
/// at the next byte instead and throws only for text that is not JSON. Where it gives up,
/// ``JSONValue/init(parsing:)`` hands the bytes to `JSONDecoder`, which also accepts the lenient
/// forms this reader refuses (trailing commas, UTF-16) and says why the text is not JSON.
///
/// Values are what `JSONDecoder` makes of the same text: the first of two equal keys wins, and a
/// number is `.integer` when its value is whole and fits in `Int`. A number of 2^53 or more written
/// with a fraction or exponent is left to `JSONDecoder`, which reads its digits exactly.
struct JSONValueParser {
    /// Not JSON this reader accepts; `JSONDecoder` gets the last word.
    struct Refusal: Error {}

    /// As deep as `JSONDecoder` nests; deeper text could exhaust the stack.
    static let maximumDepth = 512

    /// 2^53: below it `JSONDecoder` also reads a fraction or exponent through a `Double`; above it
    /// it reads the digits exactly.
    private static let exactWholeLimit: Double = 9_007_199_254_740_992

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The value `data` holds, or `nil` when it is not JSON this reader accepts.
    static func value(of data: Data) -> JSONValue? {
        data.withUnsafeBytes { bytes in
            var parser = JSONValueParser(bytes: bytes)
            return try? parser.document()
        }
    }

    private mutating func document() throws(Refusal) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        let value = try value()
        skipWhitespace()
        guard index == bytes.count else { throw Refusal() }
        return value
    }

    private mutating func value() throws(Refusal) -> JSONValue {
        guard index < bytes.count else { throw Refusal() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func object() throws(Refusal) -> JSONValue {
        try enter()
        var members: [String: JSONValue] = [:]
        if !consume(UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Refusal() }
                let key = try string()
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { throw Refusal() }
                skipWhitespace()
                let member = try value()
                if members[key] == nil { members[key] = member }
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "}")) else { throw Refusal() }
        }
        depth -= 1
        return .object(members)
    }

    private mutating func array() throws(Refusal) -> JSONValue {
        try enter()
        var elements: [JSONValue] = []
        if !consume(UInt8(ascii: "]")) {
            repeat {
                skipWhitespace()
                elements.append(try value())
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "]")) else { throw Refusal() }
        }
        depth -= 1
        return .array(elements)
    }

    /// Steps past the opening bracket and whitespace, one level deeper.
    private mutating func enter() throws(Refusal) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw Refusal() }
        index += 1
        skipWhitespace()
    }

    private mutating func literal(_ text: StaticString, _ value: JSONValue) throws(Refusal) -> JSONValue {
        let expected = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count,
            bytes[index..<index + expected.count].elementsEqual(expected)
        else { throw Refusal() }
        index += expected.count
        return value
    }

    /// A string from its opening quote through its closing one.
    private mutating func string() throws(Refusal) -> String {
        index += 1
        var utf8: [UInt8] = []
        var start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text =
                    utf8.isEmpty
                    ? String(bytes: bytes[start..<index], encoding: .utf8)
                    : String(bytes: utf8 + bytes[start..<index], encoding: .utf8)
                index += 1
                guard let text else { throw Refusal() }
                return text
            } else if byte == UInt8(ascii: "\\") {
                utf8.append(contentsOf: bytes[start..<index])
                try escape(into: &utf8)
                start = index
            } else if byte < 0x20 {
                throw Refusal()
            } else {
                index += 1
            }
        }
        throw Refusal()
    }

    /// Appends what the escape at `index` stands for, as UTF-8.
    private mutating func escape(into utf8: inout [UInt8]) throws(Refusal) {
        guard index + 1 < bytes.count else { throw Refusal() }
        let letter = bytes[index + 1]
        index += 2
        let simple: UInt8? =
            switch letter {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            utf8.append(simple)
            return
        }
        guard letter == UInt8(ascii: "u") else { throw Refusal() }
        var scalar = try hexQuad()
        if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate must be followed by an escaped low one; together they name one scalar.
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw Refusal() }
            index += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw Refusal() }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw Refusal() }
        utf8.append(contentsOf: Character(unicode).utf8)
    }

    private mutating func hexQuad() throws(Refusal) -> UInt32 {
        guard bytes.count - index >= 4 else { throw Refusal() }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Self.hexDigit(byte) else { throw Refusal() }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A number in JSON's grammar: `-`, digits without a leading zero, then an optional fraction
    /// and exponent.
    private mutating func number() throws(Refusal) -> JSONValue {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        let integerDigits = digits()
        guard integerDigits > 0, integerDigits == 1 || bytes[index - integerDigits] != UInt8(ascii: "0") else {
            throw Refusal()
        }
        var whole = true
        if consume(UInt8(ascii: ".")) {
            whole = false
            guard digits() > 0 else { throw Refusal() }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            whole = false
            _ = consume(UInt8(ascii: "+")) || consume(UInt8(ascii: "-"))
            guard digits() > 0 else { throw Refusal() }
        }
        // The grammar above admits only ASCII, so the text is valid UTF-8.
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if whole, let integer = Int(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw Refusal() }
        guard !whole, double.rounded() == double else { return .number(double) }
        guard abs(double) < Self.exactWholeLimit, let integer = Int(exactly: double) else { throw Refusal() }
        return .integer(integer)
    }

    /// Steps past a run of decimal digits and says how long it was.
    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }
}
