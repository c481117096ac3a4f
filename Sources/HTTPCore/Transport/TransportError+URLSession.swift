import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TransportError {
    /// What a URLSession task's failure for `url` means to the client: a cancellation stays a
    /// cancellation, everything else becomes a ``TransportError`` whose message names the URL
    /// error by its code only, since the error's own description can include the whole URL.
    static func fromURLSession(_ error: any Error, url: URL) -> any Error {
        guard let urlError = error as? URLError else {
            return TransportError(.other, requestMayHaveBeenSent: true, message: "The request failed.")
        }
        let underlying = URLError(urlError.code)
        switch urlError.code {
        case .cancelled:
            return CancellationError()
        case .badURL, .unsupportedURL:
            // FoundationNetworking cannot take an IPv6 literal host, for one.
            return TransportError.invalidURL(
                url,
                "URLSession cannot use this URL (\(name(of: urlError.code))); AsyncHTTPClientTransport may",
                underlying: underlying
            )
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
            .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return TransportError.cannotConnect(to: url, name(of: urlError.code), underlying: underlying)
        case .timedOut:
            return TransportError(
                .timedOut,
                requestMayHaveBeenSent: true,
                message: "The server did not answer in time.",
                underlying: underlying
            )
        case .networkConnectionLost:
            return TransportError(
                .connectionLost,
                requestMayHaveBeenSent: true,
                message: "The connection was lost before a complete response arrived.",
                underlying: underlying
            )
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData,
            .zeroByteResource:
            return TransportError(
                .connectionLost,
                requestMayHaveBeenSent: true,
                message: "The server's response was cut off or malformed.",
                underlying: underlying
            )
        default:
            return TransportError(
                .other,
                requestMayHaveBeenSent: true,
                message: "The request failed (\(name(of: urlError.code))).",
                underlying: underlying
            )
        }
    }

    /// A stable name for a URL error code; the error's own description can include the URL.
    private static func name(of code: URLError.Code) -> String {
        "URLError \(code.rawValue)"
    }
}
