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
}
