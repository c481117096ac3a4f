import Foundation
import HTTPCore
import Testing

@Suite("JSONValue")
struct JSONValueTests {
    @Test("Round trip keeps integers exact and fractions as numbers")
    func roundTrip() throws {
        let text = #"{"big":12345678901,"f":1.5,"list":[true,null,"s"],"nested":{"k":-1}}"#
        let value = try JSONValue(parsing: Data(text.utf8))
        #expect(value["big"] == .integer(12_345_678_901))
        #expect(value["f"] == .number(1.5))
        #expect(String(decoding: value.encoded(), as: UTF8.self) == text)
    }

    @Test("Literals build values")
    func literals() {
        let value: JSONValue = ["a": 1, "b": [true, nil], "c": "x", "d": 2.5]
        #expect(value["a"]?.intValue == 1)
        #expect(value["b"]?[1] == .null)
        #expect(value["b"]?[5] == nil)
        #expect(value["c"]?.stringValue == "x")
        #expect(value["d"]?.doubleValue == 2.5)
        #expect(value["zzz"] == nil)
    }

    @Test("A whole-number double reads as an Int")
    func wholeDouble() {
        #expect(JSONValue.number(1024.0).intValue == 1024)
        #expect(JSONValue.number(1.5).intValue == nil)
    }

    @Test("Invalid JSON throws")
    func invalid() {
        #expect(throws: (any Error).self) { try JSONValue(parsing: Data("{".utf8)) }
    }

    @Test("Non-finite numbers encode as null rather than failing")
    func nonFinite() {
        #expect(JSONValue.array([.number(.nan), 1]).description == "[null,1]")
    }
}
