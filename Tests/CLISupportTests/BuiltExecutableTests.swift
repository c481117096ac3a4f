import CLISupport
import CLISupportTesting
import Foundation
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

    @Test("A child gets the test process's sanitizer options and locale, and nothing it was not given")
    func childEnvironment() {
        for name in ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS", "PATH", "HOME"] {
            #expect(BuiltExecutable.inheritedVariables.contains(name), "\(name)")
        }
        let current = ProcessInfo.processInfo.environment
        let child = BuiltExecutable.environment(["TOOL_TOKEN": "given"])
        for name in BuiltExecutable.inheritedVariables {
            #expect(child[name] == current[name], "\(name)")
        }
        #expect(Set(child.keys).subtracting(BuiltExecutable.inheritedVariables) == ["TOOL_TOKEN"])
    }
}
