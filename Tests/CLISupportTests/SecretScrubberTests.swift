import CLISupportTesting
import Foundation
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

    @Test(
        "A secret holding a quote or tab is hidden in every format, though the format escapes it",
        arguments: [
            ["--format", "csv"], ["--format", "tsv"], ["--format", "table", "--fields", "name"], ["--format", "table"],
            ["--format", "jsonl"],
        ]
    )
    func escapedSecrets(format: [String]) async throws {
        // Row 1's name is `Ada, "the" first` and row 2's `Tab<tab>here`: each secret is one of
        // them, and no part of it may show, however the format escapes or cuts it.
        for (secret, part) in [(#""the" first"#, "first"), ("Tab\there", "here"), ("Tab\there", "Tab")] {
            let result = await CLIRunner.capture(
                TestTool.self,
                arguments: ["records"] + format,
                variables: ["TESTTOOL_TOKEN": secret, "COLUMNS": "14"]
            )
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(!result.stdout.contains(part), "\(format) shows \(part): \(result.stdout)")
        }
    }

    @Test("A --json error object hides a secret holding a quote or a backslash")
    func escapedSecretInErrorObject() async throws {
        let secret = #"pw"with\slash"#
        let result = await CLIRunner.capture(
            TestTool.self,
            arguments: ["--json", "fail", "--hint", "the password is \(secret)"],
            variables: ["TESTTOOL_TOKEN": secret]
        )
        #expect(try result.errorReport().hint == "the password is [REDACTED]", "\(result.stderr)")
        #expect(!result.stderr.contains("with"))
    }
}
