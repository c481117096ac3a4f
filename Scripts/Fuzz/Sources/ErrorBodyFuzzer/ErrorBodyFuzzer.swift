import Foundation
import HTTPCore
import HTTPTypes

/// First byte picks the status (400–599), the rest is the body. Mapping any body must produce a
/// typed error whose description and code can be rendered.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzErrorBody(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard let first = bytes.first else { return 0 }
    let status = 400 + Int(first) % 200
    let body = Data(bytes.dropFirst())
    var response = HTTPResponse(status: .init(code: status))
    if first & 1 == 1 { response.headerFields[.contentType] = "application/json" }
    if first & 2 == 2 { response.headerFields[.retryAfter] = "7" }
    let error = ErrorResponse(
        response: response,
        body: body,
        requestID: "req-1",
        receivedAt: Date(timeIntervalSince1970: 1_763_700_000)
    )
    .standardError
    precondition(!error.code.rawValue.isEmpty, "APIError without a code")
    precondition((1...10).contains(error.exitCode), "APIError exit code out of range")
    _ = String(describing: error)
    _ = error.isRetryable
    return 0
}
