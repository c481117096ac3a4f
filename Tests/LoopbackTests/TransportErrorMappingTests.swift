import Foundation
import HTTPCore
import NIOCore
import Testing

@testable import HTTPCoreAsyncHTTPClient

/// How the AsyncHTTPClient transport reads NIO's errors: whether a request may have gone out
/// decides whether a write is retried or reported as ambiguous.
@Suite("AsyncHTTPClient error mapping")
struct TransportErrorMappingTests {
    static let url = URL(string: "https://api.example.com/v1/x") ?? URL(fileURLWithPath: "/")

    @Test(
        "A bare IOError comes from a connection that was open: the request may have gone out, unless refused",
        arguments: [
            (EHOSTUNREACH, true), (ENETUNREACH, true), (EADDRNOTAVAIL, true), (ECONNRESET, true), (ECONNREFUSED, false),
        ]
    )
    func bareIOError(errno: Int32, maySent: Bool) throws {
        let mapped = TransportErrorMapping.transportError(
            from: IOError(errnoCode: errno, reason: "read"),
            url: Self.url,
            responseStarted: false
        )
        let error = try #require(mapped as? TransportError)
        #expect(error.requestMayHaveBeenSent == maySent)
    }
}
