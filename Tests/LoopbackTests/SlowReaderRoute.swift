import APISandbox
import Foundation
import Hummingbird

/// `POST /slow-reader`: reads the first ``slowBytes`` of the request body a part at a time with a
/// pause after each, as a server on a slow link does, then the rest at once (so the bytes still
/// in the sockets' buffers when the client sends its last one arrive promptly), and answers with
/// the number of bytes it read.
struct SlowReaderRoute: SandboxModule {
    /// The pause after each part read.
    static let pause = Duration.milliseconds(20)
    /// How much of the body is read slowly.
    static let slowBytes = 20 * 1024 * 1024

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        router.post("slow-reader") { request, _ -> String in
            var count = 0
            for try await part in request.body {
                count += part.readableBytes
                if count < Self.slowBytes { try await Task.sleep(for: Self.pause) }
            }
            return "\(count)"
        }
    }
}
