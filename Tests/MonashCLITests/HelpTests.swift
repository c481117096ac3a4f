import CLISupport
import Testing

@testable import MonashCLI

@Suite("monash --help")
struct HelpTests {
    @Test("No command's help is wrapped by hand")
    func noHandWrapping() {
        for (path, command) in HelpText.commands(of: Monash.self) {
            #expect(HelpText.handWrappedLines(in: command.configuration.discussion).isEmpty, "\(path)")
        }
    }

    @Test("Hand-wrapped prose is found; examples, lists and sentences are not")
    func detector() {
        let text = "A sentence that goes on\nand ends here.\n\nExamples:\n  monash next\n- ok."
        #expect(HelpText.handWrappedLines(in: text) == ["A sentence that goes on"])
    }
}
