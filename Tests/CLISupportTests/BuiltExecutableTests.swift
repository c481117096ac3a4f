import CLISupport
import CLISupportTesting
import Testing

@Suite("BuiltExecutable")
struct BuiltExecutableTests {
    @Test("A missing executable is a clear error that says how to build it")
    func missing() throws {
        #expect {
            try BuiltExecutable.url(named: "no-such-tool-\(UInt32.random(in: 0...UInt32.max))")
        } throws: { error in
            "\(error)".contains("run `swift build` first")
        }
    }
}
