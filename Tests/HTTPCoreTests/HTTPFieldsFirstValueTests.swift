import HTTPTypes
import Testing

@testable import HTTPCore

@Suite("HTTPFields.firstValue")
struct HTTPFieldsFirstValueTests {
    @Test("Gives the first field of the name, case-insensitively, unjoined; nil when there is none")
    func firstOfTheName() throws {
        var fields: HTTPFields = [.eTag: "\"a\"", .date: "Wed, 02 Dec 2026 17:00:00 GMT"]
        fields.append(HTTPField(name: .eTag, value: "\"b\""))
        #expect(fields.firstValue(.eTag) == "\"a\"")
        #expect(fields[.eTag] == "\"a\", \"b\"")
        #expect(fields.firstValue(try #require(HTTPField.Name("etag"))) == "\"a\"")
        #expect(fields.firstValue(.lastModified) == nil)
    }
}
