import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird

/// Mounted before the Basecamp module, so its counting wraps every Basecamp route, and with the
/// load balancer the sandbox's webhook deliveries go through: `POST /fleet/webhooks` passes each
/// delivery to the next receiver replica in turn, as a load balancer in front of a web app's
/// replicas would, so a redelivery usually lands on another replica than the first attempt.
@available(macOS 14, iOS 17, tvOS 17, *)
struct FleetWitnessModule: SandboxModule {
    let witness: FleetWitness
    let receivers: [URL]
    private let turn = Locked(0)
    private let transport = URLSessionTransport()

    init(witness: FleetWitness, receivers: [URL]) {
        self.witness = witness
        self.receivers = receivers
    }

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        router.add(middleware: FleetWitnessMiddleware(witness: witness))
        router.post(RouterPath(FleetOptions.balancerPath)) { request, _ in
            try await forward(request)
        }
    }

    /// Sends the delivery to the next replica and answers with what it answered; a replica that
    /// cannot be reached is a `502`, which the sandbox retries like any failed delivery.
    private func forward(_ request: Request) async throws -> Response {
        guard !receivers.isEmpty else { return Response(status: .serviceUnavailable) }
        let body = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
        let target = turn.withLock { turn -> URL in
            defer { turn += 1 }
            return receivers[turn % receivers.count]
        }
        var outgoing = HTTPRequest(method: .post, url: target)
        for field in request.headers
        where [.contentType, .userAgent].contains(field.name)
            || field.name.rawName
                .lowercased().hasPrefix("x-basecamp")
        {
            outgoing.headerFields.append(field)
        }
        var options = TransportOptions(timeout: .seconds(30))
        options.isIdempotent = false
        do {
            let answer = try await transport.send(outgoing, body: body, options: options)
            return Response(
                status: answer.response.status,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
            )
        } catch {
            return Response(status: .badGateway)
        }
    }
}
