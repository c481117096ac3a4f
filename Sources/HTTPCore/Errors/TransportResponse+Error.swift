import Foundation
import HTTPTypes

extension TransportResponse {
    /// The error this answer means, read by `decoder` (or HTTPCore's own table) from a body that
    /// no longer holds the credentials the request carried, and scrubbed of them again once read
    /// (the body may hold one in another spelling, such as a JSON escape).
    func apiError(decodedWith decoder: ErrorBodyDecoder?, requestIDHeader: HTTPField.Name, receivedAt: Date) -> APIError
    {
        let answer = ErrorResponse(
            response: response,
            body: sentCredentials.isEmpty ? body : Redactor.scrub(body, removing: sentCredentials),
            requestID: response.headerFields[requestIDHeader],
            receivedAt: receivedAt
        )
        return (decoder?.decode(answer) ?? answer.standardError).scrubbing(sentCredentials)
    }
}
