import APISandbox
import Foundation
import Testing

@testable import HTTPCore

/// `JSONValue.encoded()` writes the bytes `JSONEncoder` writes with sorted keys and unescaped
/// slashes, checked against `JSONEncoder` itself.
@Suite("JSONValue.encoded() writes what JSONEncoder writes")
struct JSONValueEncodingTests {
    static func encodedByJSONEncoder(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func text(_ value: JSONValue) -> String {
        String(decoding: value.encoded(), as: UTF8.self)
    }

    static let edgeCases: [JSONValue] = [
        .null, true, false, 0, -1, .integer(.max), .integer(.min), [], [:],
        0.1, 1e21, 1e-7, -0.0, 3.0, 100.0, 1e16, 12345.678, 123_456_789_012_345_678.0,
        .number(.leastNonzeroMagnitude), .number(.greatestFiniteMagnitude), .number(-.greatestFiniteMagnitude),
        "", "plain", "quote \" backslash \\ slash /", "é € 😀 \u{7F} \u{2028} \u{FEFF}",
        .string(String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })),
        ["b": 1, "B": 2, "a": 3, "é": 4, "Z": 5, "10": 6, "9": 7, "_": 8, "": 9, "a\u{0}": 10],
        // A decomposed é sorts by its bytes (before "f"), not as the composed é it equals.
        ["f": 1, "e\u{301}": 2, "ab": 3, "abc": 4, "a": 5, "\u{7F}": 6, "😀": 7, "€": 8],
        ["nested": ["list": [1, "two", [3.5, nil], ["deep": [:]]], "empty": []]],
    ]

    @Test("Every edge case: the same bytes", arguments: edgeCases)
    func edgeCase(_ value: JSONValue) throws {
        #expect(Self.text(value) == (try Self.encodedByJSONEncoder(value)))
    }

    @Test("Every example in Spec/ is written as JSONEncoder writes it")
    func specExamples() throws {
        for file in try JSONValueParsingTests.specJSONFiles() {
            let value = try JSONValue(parsing: Data(contentsOf: file))
            #expect(Self.text(value) == (try Self.encodedByJSONEncoder(value)), "\(file.lastPathComponent)")
        }
    }

    @Test("Random documents are written as JSONEncoder writes them, and read back equal")
    func randomDocuments() throws {
        var random = SplitMix64(seed: 0x4A53_4F4E_5772_6974)
        for _ in 0..<300 {
            let value = JSONValueParsingTests.randomValue(depth: 0, using: &random)
            #expect(Self.text(value) == (try Self.encodedByJSONEncoder(value)))
            #expect(try JSONValue(parsing: value.encoded()) == value)
        }
    }

    @Test("Numbers JSON cannot express are null, wherever they are")
    func nonFiniteNumbers() {
        let value: JSONValue = ["inf": .number(.infinity), "list": [.number(-.infinity), .number(.nan), 1.5]]
        #expect(Self.text(value) == #"{"inf":null,"list":[null,null,1.5]}"#)
    }

    @Test("Containers nested as deep as JSONEncoder goes are written; one deeper is null, as there")
    func depth() throws {
        func nested(_ depth: Int) -> JSONValue {
            (1..<depth).reduce(JSONValue.array([])) { inner, level in level.isMultiple(of: 2) ? ["k": inner] : [inner] }
        }
        let deepest = nested(JSONValueWriter.maximumDepth - 1)
        #expect(Self.text(deepest) == (try Self.encodedByJSONEncoder(deepest)))
        #expect(throws: EncodingError.self) { try Self.encodedByJSONEncoder(nested(JSONValueWriter.maximumDepth)) }
        #expect(Self.text(nested(JSONValueWriter.maximumDepth)) == "null")
    }
}
