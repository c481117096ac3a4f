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
}
