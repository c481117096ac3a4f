import CLISupportTesting
import Foundation
import HTTPCoreTesting
import Testing

/// What `monash` says when an answer cannot be used: JSON's words and the key path, never a Swift
/// type's name or a Foundation error's text.
@Suite("monash error texts")
struct ErrorTextTests {
    @Test(
        "An answer of the wrong shape names the JSON it wanted and where",
        arguments: [
            ("[]", "expected an object at `(root)`"),
            (#"{"week": "8"}"#, "expected a whole number at `week`"),
            (#"{"week": 8, "student": null}"#, "null where an object was expected at `student`"),
        ]
    )
    func wrongShape(body: String, words: String) async {
        let transport = ScriptedTransport([.respond(status: 200, headers: [:], body: Data(body.utf8))])
        let result = await monash(["--base-url", "https://monash.example.com/v1", "parking"]) {
            $0.transport = transport
        }
        #expect(result.exitCode == 7)
        #expect(result.stderr == "error: Could not decode the response: \(words). (HTTP 200)\n")
        for leak in ["Dictionary", "Swift.", "Error Domain", "NSCocoaErrorDomain"] {
            #expect(!result.stderr.contains(leak))
        }
    }
}
