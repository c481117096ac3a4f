import Foundation
import HTTPTypes

/// The end of the pipeline: hands one attempt to the transport with the client's options, cut to
/// what is left of the call's deadline.
struct TransportStage: Sendable {
    let transport: any HTTPTransport
    let options: TransportOptions
    let timeSource: any TimeSource
    /// Names the headers and query parameters whose values are credentials.
    let redactor: Redactor

    func send(_ request: HTTPRequest, body: Data?, context: RequestContext) async throws -> TransportResponse {
        var response = try await attempt(request, body: body, context: context)
        // Only an answer that can become an error (a redirect the call does not follow too) is
        // scrubbed, so a success or a revalidation pays nothing for it.
        let status = response.response.status.code
        if !(200..<300).contains(status), status != 304 {
            response.sentCredentials = redactor.credentialValues(in: request, body: body)
        }
        return response
    }

    private func attempt(_ request: HTTPRequest, body: Data?, context: RequestContext) async throws -> TransportResponse
    {
        var options = options
        options.isIdempotent = context.isIdempotent
        if let deadline = context.deadline {
            // The attempt may not outlive the call: give the transport only what is left, as a
            // bound on the whole exchange, since the idle timeout restarts with every byte.
            let remaining = max(deadline - timeSource.monotonicNow(), .milliseconds(1))
            options.timeout = min(options.timeout, remaining)
            options.totalTimeout = remaining
        }
        guard let transfer = context.transfer else {
            return try await transport.send(request, body: body, options: options)
        }
        // A body on its way to disk has no memory limit to respect.
        if transfer.download != nil { options.maxBodySize = .max }
        return try await transport.send(request, body: body, options: options, transfer: transfer)
    }
}
