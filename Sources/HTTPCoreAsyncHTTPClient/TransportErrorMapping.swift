import AsyncHTTPClient
import Foundation
import HTTPCore
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns AsyncHTTPClient and SwiftNIO errors into ``TransportError``.
///
/// `requestMayHaveBeenSent` is `false` only for failures that happen before AsyncHTTPClient
/// hands the request to a connection: connecting, resolving the name, the TLS handshake.
/// Everything else may have reached the server, and once the response head has arrived the
/// request certainly did.
enum TransportErrorMapping {
    /// What `error`, met while sending to `url`, means to the client; `responseStarted` once the
    /// response head arrived.
    static func transportError(from error: any Error, url: URL, responseStarted: Bool) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        if let error = error as? TransportError { return error }
        // A download's own file failing is not the network's doing.
        if let error = error as? FileWriteError { return error }
        var mapped = classify(error, url: url)
        if responseStarted {
            mapped.requestMayHaveBeenSent = true
            if mapped.kind == .cannotConnect { mapped.kind = .connectionLost }
        }
        return mapped
    }

    private static func classify(_ error: any Error, url: URL) -> TransportError {
        #if canImport(Network)
        // Network.framework's errors, when the client runs on NIOTransportServices.
        if error is HTTPClient.NWTLSError {
            return TransportError.cannotConnect(to: url, "the TLS handshake failed", underlying: nil)
        }
        if let error = error as? HTTPClient.NWPOSIXError {
            switch error.errorCode {
            case .ECONNREFUSED:
                return TransportError.cannotConnect(to: url, "the connection was refused")
            case .ENETUNREACH, .EHOSTUNREACH, .EADDRNOTAVAIL:
                return TransportError.cannotConnect(to: url, "the connection failed")
            default:
                return connectionLost("the connection failed", underlying: nil)
            }
        }
        #endif
        switch error {
        case let error as HTTPClientError:
            return classify(error, url: url)
        case let error as NIOConnectionError:
            let unresolved = error.connectionErrors.isEmpty && (error.dnsAError != nil || error.dnsAAAAError != nil)
            let refused = error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            let reason =
                unresolved
                ? "the host name could not be resolved"
                : refused ? "the connection was refused" : "the connection failed"
            return TransportError.cannotConnect(to: url, reason)
        case let error as ChannelError:
            if case .connectTimeout = error {
                return TransportError.cannotConnect(to: url, "connecting timed out", underlying: error)
            }
            return connectionLost("the connection closed", underlying: error)
        case let error as IOError:
            return classify(error, url: url)
        case let error as NIOSSLError:
            switch error {
            case .uncleanShutdown:
                return connectionLost("the TLS connection closed uncleanly", underlying: nil)
            case .handshakeFailed, .unableToValidateCertificate, .noCertificateToValidate, .cannotMatchULabel,
                .cannotFindPeerIP:
                return TransportError.cannotConnect(to: url, "the TLS handshake failed", underlying: nil)
            default:
                return other("a TLS error occurred")
            }
        case is NIOSSLExtraError:
            return TransportError.cannotConnect(to: url, "the TLS handshake failed", underlying: nil)
        case is HTTPParserError:
            return TransportError(
                .invalidResponse,
                requestMayHaveBeenSent: true,
                message: "The server's response was cut off or malformed."
            )
        default:
            return other("the request failed")
        }
    }

    private static func classify(_ error: HTTPClientError, url: URL) -> TransportError {
        switch error {
        case .connectTimeout, .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout,
            .invalidProxyResponse, .proxyAuthenticationRequired:
            return TransportError.cannotConnect(to: url, "connecting timed out or the proxy refused", underlying: error)
        case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath:
            return TransportError.invalidURL(url, "AsyncHTTPClient cannot use this URL", underlying: error)
        case .alreadyShutdown, .traceRequestWithBody, .getConnectionFromPoolTimeout:
            return TransportError(
                .other,
                requestMayHaveBeenSent: false,
                message: "The request could not be started (\(error.description)).",
                underlying: error
            )
        case .readTimeout, .writeTimeout, .deadlineExceeded:
            return TransportError(
                .timedOut,
                requestMayHaveBeenSent: true,
                message: "The server did not answer in time.",
                underlying: error
            )
        case .remoteConnectionClosed:
            return connectionLost("the connection closed", underlying: error)
        default:
            return TransportError(
                .other,
                requestMayHaveBeenSent: true,
                message: "The request failed (\(error.description)).",
                underlying: error
            )
        }
    }

    /// A bare `IOError` comes from reading or writing a connection that was open (NIO reports a
    /// failed connect as `NIOConnectionError`), so the request may have gone out, whatever the
    /// errno says; only a refusal, which no open TCP connection reports, means it never left.
    private static func classify(_ error: IOError, url: URL) -> TransportError {
        guard error.errnoCode == ECONNREFUSED else { return connectionLost("the connection failed", underlying: error) }
        return TransportError.cannotConnect(to: url, "the connection was refused", underlying: error)
    }

    private static func connectionLost(_ what: String, underlying: (any Error & Sendable)?) -> TransportError {
        TransportError(
            .connectionLost,
            requestMayHaveBeenSent: true,
            message: "The connection was lost before a complete response arrived (\(what)).",
            underlying: underlying
        )
    }

    private static func other(_ what: String) -> TransportError {
        TransportError(.other, requestMayHaveBeenSent: true, message: "The request failed (\(what)).")
    }
}
