import Foundation
import HTTPTypes

extension TransportResponse {
    /// Whether this answer came from the origin `request` was sent to, not from another one a
    /// redirect led to: only the API's own answers speak for its credentials and its rate limit.
    /// Asked only about failures, so the URL parse costs nothing on the common path.
    func isFromOrigin(of request: HTTPRequest) -> Bool {
        guard let sent = request.url else { return true }
        return RedirectPolicy.sameOrigin(sent, url)
    }
}
