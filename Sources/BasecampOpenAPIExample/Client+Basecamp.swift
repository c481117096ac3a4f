import Foundation
import OpenAPIRuntime

extension Client {
    /// The generated client for `serverURL` on `transport`, reading Basecamp's timestamps, which
    /// carry fractional seconds.
    static func basecamp(serverURL: URL, transport: any ClientTransport) -> Client {
        Client(
            serverURL: serverURL,
            configuration: Configuration(dateTranscoder: .iso8601WithFractionalSeconds),
            transport: transport
        )
    }
}
