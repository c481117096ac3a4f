import HTTPCore
import Testing

@testable import CLISupport

@Suite("Secret scrubber")
struct SecretScrubberTests {
    @Test("A registered secret is replaced as it is and percent-encoded, as a server may echo it")
    func encodedSpellings() {
        let scrubber = SecretScrubber()
        scrubber.register("pw-Secr3t!")
        #expect(scrubber.scrub("apipassword=pw-Secr3t%21, or pw-Secr3t!") == "apipassword=[REDACTED], or [REDACTED]")
    }

    @Test("In JSON a number spelling a secret becomes the placeholder string; names and strings are scrubbed")
    func jsonValues() throws {
        let scrubber = SecretScrubber()
        scrubber.register("null")
        scrubber.register("2024")
        let value: JSONValue = .object([
            "year": .integer(2024), "total": .integer(12024), "ratio": .number(0.5), "note": .string("in 2024"),
            "2024": .bool(true), "gone": .null, "list": .array([.integer(7), .string("nullable")]),
        ])
        #expect(!scrubber.hasRedactedResults)
        #expect(
            scrubber.scrub(value)
                == .object([
                    "year": "[REDACTED]", "total": "[REDACTED]", "ratio": .number(0.5), "note": "in [REDACTED]",
                    "[REDACTED]": true, "gone": .null, "list": .array([.integer(7), "[REDACTED]able"]),
                ])
        )
        #expect(scrubber.hasRedactedResults)
    }
}
