import Foundation
import HTTPCore

private let now = Date(timeIntervalSince1970: 1_763_700_000)

/// Any header value either yields a positive, bounded wait or `nil`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRetryAfter(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let value = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    if let wait = RetryAfter.parse(value, now: now) {
        precondition(wait > .zero, "RetryAfter.parse returned a non-positive wait")
        precondition(wait <= .seconds(999_999_999_999), "RetryAfter.parse did not saturate")
    }
    return 0
}
