import Foundation
import HTTPCore
import Markbook
import Testing

@Suite("CSV and TSV: a strict RFC 4180 reader and writer")
struct DelimitedTextTests {
    @Test("Quoted fields hold commas, doubled quotes and line breaks; CRLF and LF both end records")
    func quoting() throws {
        let text = "a,\"b,c\",\"say \"\"hi\"\"\"\r\n\"two\r\nlines\",,x\nlast,\"\",end"
        let rows = try DelimitedText.csv.read(text)
        #expect(rows == [["a", "b,c", "say \"hi\""], ["two\r\nlines", "", "x"], ["last", "", "end"]])
    }

    @Test("A byte order mark is skipped; a final line break adds no record; CR alone ends a record")
    func byteOrderMarkAndEndings() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + Data("sid,Zoë\r\n1,2\r\n".utf8)
        #expect(try DelimitedText.csv.read(data) == [["sid", "Zoë"], ["1", "2"]])
        #expect(try DelimitedText.csv.read("a\rb\r") == [["a"], ["b"]])
        #expect(try DelimitedText.csv.read("") == [])
        #expect(try DelimitedText.csv.read("a,\n") == [["a", ""]])
    }

    @Test("TSV uses tabs with the same quoting")
    func tsv() throws {
        let rows = [["sid", "name"], ["1", "tab\there"], ["2", "plain, with comma"]]
        let text = DelimitedText.tsv.string(rows)
        #expect(text == "sid\tname\r\n1\t\"tab\there\"\r\n2\tplain, with comma\r\n")
        #expect(try DelimitedText.tsv.read(text) == rows)
    }

    @Test("Malformed quoting is an error naming the line, never a guess")
    func malformed() throws {
        for (text, fragment) in [
            ("a,b\nc,d\"e\n", "Line 2: a quote inside an unquoted field"),
            ("a,\"b\"c\n", "Line 1: text after a closing quote"),
            ("a\n\"open,\nstill open", "Line 2: a quoted field is never closed"),
        ] {
            do {
                _ = try DelimitedText.csv.read(text)
                Issue.record("\(text.debugDescription) was read")
            } catch let error as APIError {
                #expect(error.code == .usage)
                #expect(error.message.contains(fragment), "\(error.message)")
            }
        }
    }

    @Test("Bytes that are not UTF-8 are refused")
    func notUTF8() {
        #expect(throws: APIError.self) { try DelimitedText.csv.read(Data([0x61, 0x2C, 0xFF, 0x0A])) }
    }

    @Test("What the writer writes, the reader reads back exactly, with a byte order mark too")
    func roundTrip() throws {
        let rows = [
            ["sid", "family name", "Algebra test"], ["100322", "O'Brien", "36"], ["9", "Smith, \"Jr\"", ""],
            ["10", "multi\nline", "  spaced  "], ["", "", ""],
        ]
        for format in [DelimitedText.csv, .tsv] {
            #expect(try format.read(format.data(rows, byteOrderMark: true)) == rows)
            #expect(try format.read(format.string(rows)) == rows)
        }
        #expect(DelimitedText.csv.data([["é"]], byteOrderMark: true).starts(with: [0xEF, 0xBB, 0xBF]))
    }
}
