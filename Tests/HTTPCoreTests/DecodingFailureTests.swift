import Foundation
import Testing

@testable import HTTPCore

/// A response that does not decode is described by its key path and JSON's words.
@Suite("Decoding failures in words")
struct DecodingFailureTests {
    @Test(
        "Decoding failures name JSON's kinds, never a Swift type",
        arguments: [
            (#"[]"#, "expected an object at `(root)`"),
            (#"{"a": 1}"#, "expected a string at `a`"),
            (#"{"a": "x", "n": "1"}"#, "expected a whole number at `n`"),
            (#"{"a": "x", "n": 1, "list": {}}"#, "expected an array at `list`"),
            (#"{"a": null}"#, "null where a string was expected at `a`"),
        ]
    )
    func decodingWords(json: String, words: String) {
        struct Shape: Decodable {
            var a: String
            var n: Int?
            var list: [Bool]?
        }
        do {
            _ = try JSONDecoder().decode(Shape.self, from: Data(json.utf8))
            Issue.record("\(json) decoded")
        } catch {
            let message = DecodingFailure.describe(error)
            #expect(message == "Could not decode the response: \(words).")
            #expect(!message.contains("Dictionary") && !message.contains("Swift."))
        }
    }

    @Test("A number that does not fit is not called invalid JSON", arguments: ["645.5", "1e30"])
    func numberOutOfRange(_ number: String) {
        struct Park: Decodable { var slot: Int }
        let body = Data(#"{"slot": \#(number)}"#.utf8)
        let broken = Data(#"{"slot": 1"#.utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Park.self, from: body) }
        do {
            _ = try JSONDecoder().decode(Park.self, from: body)
        } catch {
            // Foundation on Linux gives no key path here; on Apple platforms it names `slot`.
            let message = DecodingFailure.describe(error, body: body)
            #expect(!message.contains("not valid JSON"))
            #expect(message.contains("does not fit") || message.contains("`slot`"))
        }
        do {
            _ = try JSONDecoder().decode(Park.self, from: broken)
        } catch {
            #expect(
                DecodingFailure.describe(error, body: broken)
                    == "Could not decode the response: the body is not valid JSON."
            )
        }
    }
}
