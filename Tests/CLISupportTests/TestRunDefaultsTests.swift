import Foundation
import Testing

#if !os(Windows)
/// The test bundle's own setting (the `TestRunDefaults` target), which a plain `swift test` relies on.
@Suite("The test run's defaults")
struct TestRunDefaultsTests {
    @Test("A width for the tests in flight is set before Swift Testing starts")
    func parallelizationWidth() throws {
        let width = try #require(ProcessInfo.processInfo.environment["SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH"])
        #expect(Int(width).map { $0 > 0 } == true)
    }
}
#endif
