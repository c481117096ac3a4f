import Foundation
import HTTPCore
import Testing

@Suite("Retry-After and HTTP dates")
struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test("Delta-seconds")
    func deltaSeconds() {
        #expect(RetryAfter.parse("3", now: now) == .seconds(3))
        #expect(RetryAfter.parse(" 120 ", now: now) == .seconds(120))
    }

    @Test("All three HTTP date formats")
    func dates() {
        for text in ["Sun, 06 Nov 1994 08:49:47 GMT", "Sunday, 06-Nov-94 08:49:47 GMT", "Sun Nov  6 08:49:47 1994"] {
            #expect(RetryAfter.parse(text, now: now) == .seconds(10), "\(text)")
        }
    }

    @Test(
        "Zero, negative, partly numeric, past and garbage values fall back (nil)",
        arguments: [
            "0", "-5", "5s", "1.5", "+3", "", "soon", "Sun, 06 Nov 1994 08:49:00 GMT", "Sun, 32 Nov 1994 08:49:47 GMT",
            "Sun, 06 Foo 1994 08:49:47 GMT", "Sun, 06 Nov 1994 25:49:47 GMT", "Sun, +6 Nov 1994 08:49:47 GMT",
        ]
    )
    func fallbacks(text: String) {
        #expect(RetryAfter.parse(text, now: now) == nil)
    }

    @Test("Huge values saturate instead of overflowing")
    func saturation() {
        #expect(RetryAfter.parse("99999999999999999999999999", now: now) == .seconds(999_999_999_999))
        #expect(RetryAfter.parse("0000000000030", now: now) == .seconds(30), "leading zeros are not a huge wait")
        #expect(RetryAfter.parse("0000000000000", now: now) == nil)
    }
}
