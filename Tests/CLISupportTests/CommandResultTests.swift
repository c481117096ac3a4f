import CLISupportTesting
import Foundation
import HTTPCore
import Testing

@Suite("CommandResult reads a --json run's stdout")
struct CommandResultTests {
    private func result(_ stdout: String) -> CommandResult {
        CommandResult(exitCode: 0, stdout: stdout, stderr: "")
    }

    @Test("A list reads as [JSONValue] and as one JSONValue, with the values JSONDecoder gives")
    func list() throws {
        let text = #"[{"id": 1, "done": false, "tags": ["a"], "score": 2.5, "note": null}, "two"]"#
        let expected = try JSONDecoder().decode([JSONValue].self, from: Data(text.utf8))
        #expect(try result(text).json([JSONValue].self) == expected)
        #expect(try result(text).json(JSONValue.self) == .array(expected))
    }

    @Test("An object asked for as a list, or text that is not JSON, is the decoder's error")
    func wrongShape() {
        #expect(throws: DecodingError.self) { try result(#"{"id": 1}"#).json([JSONValue].self) }
        #expect(throws: DecodingError.self) { try result("not json").json([JSONValue].self) }
        #expect(throws: DecodingError.self) { try result("not json").json(JSONValue.self) }
    }

    @Test("Other types are read by JSONDecoder")
    func typed() throws {
        struct Item: Decodable, Equatable {
            var id: Int
        }
        #expect(try result(#"[{"id": 7}]"#).json([Item].self) == [Item(id: 7)])
    }
}
