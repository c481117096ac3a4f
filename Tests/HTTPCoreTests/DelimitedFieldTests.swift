import HTTPCore
import Testing

@Suite("DelimitedField: the one quoting rule of CSV and spreadsheet TSV")
struct DelimitedFieldTests {
    @Test(
        "A field is quoted only when it holds the delimiter, a quote, CR or LF; quotes inside are doubled",
        arguments: [
            ("plain", ",", "plain"),
            ("", ",", ""),
            ("a,b", ",", "\"a,b\""),
            ("a\tb", ",", "a\tb"),
            ("a\tb", "\t", "\"a\tb\""),
            ("a,b", "\t", "a,b"),
            ("say \"hi\"", ",", "\"say \"\"hi\"\"\""),
            ("two\nlines", "\t", "\"two\nlines\""),
            ("cr\r", ",", "\"cr\r\""),
            ("crlf\r\n", ",", "\"crlf\r\n\""),
            ("ünï", ",", "ünï"),
        ] as [(String, Unicode.Scalar, String)]
    )
    func quoting(field: String, delimiter: Unicode.Scalar, expected: String) {
        #expect(DelimitedField.quoted(field, delimiter: delimiter) == expected)
    }

    @Test("A delimiter that a combining mark joins into one character is still quoted")
    func combiningMark() {
        let field = "1,\u{301}5"
        #expect(!field.contains(","))  // as a Character the comma is hidden
        #expect(DelimitedField.quoted(field) == "\"1,\u{301}5\"")
        #expect(DelimitedField.quoted("x\t\u{301}", delimiter: "\t") == "\"x\t\u{301}\"")
    }

    @Test("A record joins the quoted fields with the delimiter and has no line ending")
    func record() {
        #expect(DelimitedField.record(["a", "b,c", ""]) == "a,\"b,c\",")
        #expect(DelimitedField.record(["a", "b\tc", "d,e"], delimiter: "\t") == "a\t\"b\tc\"\td,e")
        #expect(DelimitedField.record([]) == "")
    }
}
