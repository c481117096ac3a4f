import APISandbox
import Foundation
import Hummingbird

/// `GET /announced-large`: a head announcing 10 MB at once, and the body only once the test
/// releases ``hold``.
struct AnnouncedLengthRoute: SandboxModule {
    /// The hold that keeps the body back.
    static let hold = "announced-large"

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        router.get("announced-large") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream", .contentLength: "10000000"],
                body: ResponseBody(contentLength: 10_000_000) { writer in
                    try await state.waitForRelease(of: Self.hold)
                    try await writer.write(ByteBuffer(repeating: 0, count: 10_000_000))
                    try await writer.finish(nil)
                }
            )
        }
    }
}
