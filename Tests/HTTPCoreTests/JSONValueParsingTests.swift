import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Testing

/// `JSONValue(parsing:)` reads UTF-8 JSON itself; whatever it reads must be what `JSONDecoder`
/// makes of the same bytes, and what it refuses must still go to `JSONDecoder`.
@Suite("JSONValue(parsing:) agrees with JSONDecoder")
struct JSONValueParsingTests {
    /// What `JSONDecoder` makes of `bytes`, or `nil` when it throws.
    static func decoded(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    static let edgeCases: [String] = [
        "0", "-0", "-0.0", "1.0", "1e3", "1E+2", "0.1e1", "100e-2", "2e-400", "1.5", "-12.25e-1",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "9223372036854775807.0",
        "9007199254740993.0", "9007199254740993e0", "4503599627370495.5", "6755399441055743.5",
        "4503599627370497.0", "12345678901234567.0", "1e16", "1.5e16", "9223372036854775806.0",
        "-9223372036854775808.0", "1.0000000000000001", "123456789012345678901234567890",
        "1e308", "1e309", "-1e309", "01", "-", "1.", ".5", "+1", "1e", "1e+", "NaN", "Infinity", "1e2x",
        "true", "false", "null", "truex", "nul", "tru", "", " ", " \t\n\r1 \n", "1\u{0}", "[1,]", "{\"a\":1,}",
        #""\/\b\f\n\r\t\"\\""#, #""\u00e9\u00E9""#, #""\u0000""#, #""\ud83d\ude00""#, #""\ud800""#,
        #""\udc00x""#, #""\ud83d\u0041""#, #""\x""#, #""\u12""#, "\"a\u{01}b\"", "\"a\tb\"", "\"\u{7F}\"",
        "\"😀 é\"", #"{"a":1,"a":2}"#, #"{"a" 1}"#, #"{1:2}"#, "[1 2]", "[", "]", "{", #"{"a":}"#,
        #"{"list":[true,null,"s",{"k":-1}],"empty":{},"none":[]}"#, "[[[]]]", "\u{FEFF}[1]",
    ]

    @Test("Every edge case: the same value, or refused by both", arguments: edgeCases)
    func edgeCase(_ text: String) {
        let bytes = Array(text.utf8)
        #expect((try? JSONValue(parsing: Data(bytes))) == Self.decoded(bytes), "\(text.debugDescription)")
    }

    @Test("Bytes that are not UTF-8 or not one scalar are refused, as JSONDecoder refuses them")
    func invalidUTF8() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82],
        ] {
            #expect(throws: DecodingError.self) { try JSONValue(parsing: Data(bytes)) }
            #expect(Self.decoded(bytes) == nil)
        }
    }

    @Test("UTF-16 and trailing commas still parse, through JSONDecoder")
    func lenientForms() throws {
        let utf16 = Array("[1]".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(try JSONValue(parsing: Data(utf16)) == [1])
        #expect(try JSONValue(parsing: Data("[1,]".utf8)) == [1])
    }

    @Test("Every example in Spec/ reads as JSONDecoder reads it")
    func specExamples() throws {
        for file in try Self.specJSONFiles() {
            let bytes = try Array(Data(contentsOf: file))
            let expected = try #require(Self.decoded(bytes), "\(file.lastPathComponent)")
            #expect(try JSONValue(parsing: Data(bytes)) == expected, "\(file.lastPathComponent)")
        }
    }

    @Test("Random documents, compact and pretty-printed, read as JSONDecoder reads them")
    func randomDocuments() throws {
        var random = SplitMix64(seed: 0x5EED)
        for _ in 0..<300 {
            let value = Self.randomValue(depth: 0, using: &random)
            for formatting: JSONEncoder.OutputFormatting in [[], [.prettyPrinted, .sortedKeys]] {
                let encoder = JSONEncoder()
                encoder.outputFormatting = formatting
                let bytes = try Array(encoder.encode(value))
                #expect(try JSONValue(parsing: Data(bytes)) == Self.decoded(bytes))
            }
        }
    }

    @Test("As deep as JSONDecoder goes, and past it a DecodingError, not a crash")
    func depth() async throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONValue(parsing: Data(deepest.utf8)).arrayValue?.count == 1)
        let tooDeep = String(repeating: "[", count: 100_000)
        #expect(throws: DecodingError.self) { try JSONValue(parsing: Data(tooDeep.utf8)) }
    }

    @Test("An endpoint of JSONValue or [JSONValue] reads its body the same way; an object is no list")
    func responseDecoder() throws {
        let body = Data(#"{"id":12345678901,"score":87.5,"tags":["a"],"created_at":"2024-05-01T10:00:00Z"}"#.utf8)
        let decoder = JSONCoding().makeDecoder()
        let value = try ResponseDecoder<JSONValue>.json.decode(body, HTTPResponse(status: .ok), decoder)
        #expect(value == Self.decoded(Array(body)))
        #expect(value["created_at"] == "2024-05-01T10:00:00Z")

        let list = try ResponseDecoder<[JSONValue]>.json.decode(
            Data("[\(String(decoding: body, as: UTF8.self))]".utf8),
            HTTPResponse(status: .ok),
            decoder
        )
        #expect(list == [value])
        #expect(throws: DecodingError.self) {
            try ResponseDecoder<[JSONValue]>.json.decode(body, HTTPResponse(status: .ok), decoder)
        }
    }

    /// Every JSON file under `Spec/`: the examples the APIs answer with.
    static func specJSONFiles() throws -> [URL] {
        let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Spec")
        let files = try #require(FileManager.default.enumerator(at: spec, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }
        #expect(files.count > 50)
        return files
    }

    static func randomValue(depth: Int, using random: inout SplitMix64) -> JSONValue {
        let pick = random.next() % (depth < 4 ? 9 : 6)
        switch pick {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .integer(Int(truncatingIfNeeded: random.next()) >> Int(random.next() % 64))
        case 3: return .number(Double(Int64(truncatingIfNeeded: random.next()) % 1_000_000) / 64)
        case 4, 5: return .string(randomString(using: &random))
        case 6: return .array((0..<random.next() % 4).map { _ in randomValue(depth: depth + 1, using: &random) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<random.next() % 4 {
                members[randomString(using: &random)] = randomValue(depth: depth + 1, using: &random)
            }
            return .object(members)
        }
    }

    static func randomString(using random: inout SplitMix64) -> String {
        let alphabet: [Character] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "é", "€", "😀", "\u{7F}"]
        return String((0..<random.next() % 8).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
    }
}
