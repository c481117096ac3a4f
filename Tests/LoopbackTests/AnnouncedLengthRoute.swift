import APISandbox
import Foundation
import Hummingbird

/// `GET /announced-large`: a head announcing 10 MB at once, and the body only after ``delay``.
struct AnnouncedLengthRoute: SandboxModule {
    /// Long, so a refusal that waited for the body stands apart from a prompt one even when a
    /// loaded VM stalls the process for a few seconds.
    static let delay = Duration.milliseconds(10_000 * SanitizerRun.slowdown)

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        router.get("announced-large") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream", .contentLength: "10000000"],
                body: ResponseBody(contentLength: 10_000_000) { writer in
                    try await Task.sleep(for: Self.delay)
                    try await writer.write(ByteBuffer(repeating: 0, count: 10_000_000))
                    try await writer.finish(nil)
                }
            )
        }
    }
}
