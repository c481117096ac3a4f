import Foundation
import HTTPCore
import Testing

@testable import BasecampSandbox

/// The sandbox writes its answers with ``JSONText``; its bytes must be the ones `JSONEncoder`
/// writes with sorted keys, so clients and ETags see no difference.
@Suite("JSON written by the sandbox")
struct JSONTextTests {
    static let values: [JSONValue] = [
        .null, true, false, 0, -42, 1_069_479_395, 1.5, -2.25, 100.0, 0.1, 1e-7, 12_345.678,
        "", "plain", "quote \" backslash \\ slash / tab \t newline \n return \r", "\u{01}\u{08}\u{0C}\u{1F}",
        "café ☕️ 日本 🇦🇺", [], [1, "two", [3.5]], [:],
        ["b": 1, "a": ["z": nil, "y": [true]], "B": "upper", "aa": "", "é": "accent"],
    ]

    @Test("Each value is written as JSONEncoder writes it", arguments: Self.values)
    func sameBytes(_ value: JSONValue) {
        #expect(JSONText.bytes(value) == Array(value.encoded()), "\(value)")
    }

    @Test("Every seeded record renders to the same bytes both ways")
    func seededRecords() {
        let data = AccountData.seeded()
        let renderer = Renderer(origin: "http://127.0.0.1:8080", basePath: "/basecamp", data: data)
        let rendered = data.records.map { renderer.record($0) }
        #expect(rendered.count > 100)
        for value in rendered {
            #expect(JSONText.bytes(value) == Array(value.encoded()))
        }
    }

    @Test("Infinity and NaN, which JSON cannot hold, are written as null")
    func nonFinite() {
        #expect(JSONText.bytes([.number(.infinity), .number(.nan)]) == Array("[null,null]".utf8))
    }
}
