public import APISandbox
import CLISupport
import Foundation
public import Hummingbird

/// A sandbox module that answers `GET` on one path with the same response every time: a stand-in
/// for a service in a state the real sandbox modules do not play (failing, linking elsewhere), or
/// the whole API of a test tool.
///
/// ```swift
/// let failing = CannedResponseModule(
///     path: "broken/schedules",
///     status: .internalServerError,
///     body: #"{"error":"database unavailable"}"#
/// )
/// try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [failing])) { sandbox in
///     // point the tool at sandbox.baseURL.appending(path: "broken")
/// }
/// ```
@available(macOS 14, iOS 17, tvOS 17, *)
public struct CannedResponseModule: SandboxModule {
    /// The path it answers, relative to the sandbox's root (no leading slash).
    public var path: String
    /// The status of every answer.
    public var status: HTTPResponse.Status
    /// The header fields of every answer; `Content-Type: application/json` by default.
    public var headers: HTTPFields
    /// The body of every answer.
    public var body: String

    /// Creates a module that answers `GET path` with `status`, `headers` and `body`.
    public init(
        path: String,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [.contentType: "application/json"],
        body: String
    ) {
        self.path = path
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A service that fails: `GET path` answers `500 Internal Server Error` with the JSON body
    /// `{"error": message}` and `X-Request-Id: requestID`, as a broken API would.
    public static func failing(path: String, message: String, requestID: String) -> CannedResponseModule {
        let body = (try? JSONEncoder().encode(["error": message])).map { String(decoding: $0, as: UTF8.self) }
        return CannedResponseModule(
            path: path,
            status: .internalServerError,
            headers: [.contentType: "application/json", .xRequestID: requestID],
            body: body ?? "{}"
        )
    }

    /// Adds the one route.
    public func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        router.get(RouterPath(path)) { [status, headers, body] _, _ -> Response in
            Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
    }
}
