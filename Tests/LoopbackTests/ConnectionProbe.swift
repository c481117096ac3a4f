import Foundation
import HTTPCore
import Hummingbird

@testable import APISandbox

/// What the probe route saw: how many requests, and over how many distinct connections.
final class ConnectionLog: Sendable {
    private struct Seen: Sendable {
        var requests = 0
        var clientPorts: Set<Int> = []
    }

    private let seen = Locked(Seen())

    var requests: Int { seen.withLock { $0.requests } }
    var distinctConnections: Int { seen.withLock { $0.clientPorts.count } }

    func record(clientPort: Int?) {
        seen.withLock { seen in
            seen.requests += 1
            // Every connection from the client has its own ephemeral port.
            if let clientPort { seen.clientPorts.insert(clientPort) }
        }
    }
}

/// `/loopback-probe/{index}` (GET or POST, optional `delay_ms`) answers
/// `{"index": index, "body": request body}` and logs the client's port, so a test can count the
/// connections a transport opened. `/loopback-probe-empty/{status}` (GET or HEAD) answers that
/// status (204 or 304) with no body, also logged.
struct ConnectionProbe: SandboxModule {
    struct Answer: ResponseEncodable {
        var index: Int
        var body: String
    }

    let log: ConnectionLog

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        for method in [HTTPRequest.Method.get, .post] {
            router.on("loopback-probe/:index", method: method) { request, context -> Answer in
                log.record(clientPort: context.channel.remoteAddress?.port)
                if let delay = request.uri.queryParameters.get("delay_ms", as: Int.self) {
                    try await Task.sleep(for: .milliseconds(delay))
                }
                let body = try await request.body.collect(upTo: 1024 * 1024)
                return Answer(
                    index: try context.parameters.require("index", as: Int.self),
                    body: String(buffer: body)
                )
            }
        }
        for method in [HTTPRequest.Method.get, .head] {
            router.on("loopback-probe-empty/:status", method: method) { _, context -> Response in
                log.record(clientPort: context.channel.remoteAddress?.port)
                let status = try context.parameters.require("status", as: Int.self)
                return Response(status: HTTPResponse.Status(code: status), headers: [.eTag: "\"probe\""])
            }
        }
    }
}

/// Timings the suite measures, printed so a run shows them.
enum Measurements {
    static func record(_ line: String) {
        print("[measured] \(line)")
    }
}
