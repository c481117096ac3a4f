import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TransportError {
    /// What a URLSession task's failure means to the client: a cancellation stays a
    /// cancellation, everything else becomes a ``TransportError`` whose message names the
    /// URL error by its code only, since the error's own description can include the URL.
    static func fromURLSession(_ error: any Error) -> any Error {
        guard let urlError = error as? URLError else {
            return TransportError(.other, requestMayHaveBeenSent: true, message: "The request failed.")
        }
        let underlying = URLError(urlError.code)
        switch urlError.code {
        case .cancelled:
            return CancellationError()
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
            .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .badURL, .unsupportedURL:
            return TransportError(
                .cannotConnect,
                requestMayHaveBeenSent: false,
                message: "Could not connect to the server (\(name(of: urlError.code))).",
                underlying: underlying
            )
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
