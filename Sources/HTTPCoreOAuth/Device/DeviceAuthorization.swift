public import Foundation
public import HTTPCore

/// A device authorization (RFC 8628 §3.2): the code the user enters, where, and how long the
/// app may wait for them.
///
/// Show ``userCode`` and ``verificationURI`` (or ``verificationURIComplete``, which carries the
/// code, as a link or QR code); then ``OAuthClient/pollDeviceAuthorization(_:onUpdate:)`` waits
/// for the user. The device code is a secret: printing or dumping this value never shows it.
public struct DeviceAuthorization: Sendable {
    /// The code the app polls with; secret.
    public let deviceCode: String
    /// The code the user types, e.g. `WDJB-MJHT`.
    public let userCode: String
    /// Where the user goes to enter it.
    public let verificationURI: URL
    /// The same page with the code filled in, when the server offers one.
    public let verificationURIComplete: URL?
    /// How long the codes stay valid.
    public let expiresIn: Duration
    /// How long to wait between polls (5 s when the server does not say).
    public let interval: Duration
    /// When the authorization was received, on the client's monotonic clock: the flow ends at
    /// `receivedAt + expiresIn`.
    public let receivedAt: Duration

    /// Creates an authorization, for tests and for codes obtained some other way.
    public init(
        deviceCode: String,
        userCode: String,
        verificationURI: URL,
        verificationURIComplete: URL? = nil,
        expiresIn: Duration,
        interval: Duration = .seconds(5),
        receivedAt: Duration
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.interval = interval
        self.receivedAt = receivedAt
    }

    /// The longest lifetime or interval accepted: a day. More is a server bug.
    static let maxSeconds = 24 * 3600

    /// Reads a 200 answer strictly.
    ///
    /// - Throws: ``APIError/apiError(_:)`` naming the field at fault.
    static func parse(_ body: Data, receivedAt: Duration) throws -> DeviceAuthorization {
        guard let value = try? JSONValue(parsing: body), case .object(let members) = value else {
            throw malformed("the body is not a JSON object")
        }
        func text(_ name: String) throws -> String {
            guard case .string(let text)? = members[name], !text.isEmpty else {
                throw malformed("`\(name)` is missing or empty")
            }
            return text
        }
        func link(_ name: String) throws -> URL {
            let text = try text(name)
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["https", "http"].contains(scheme),
                url.host != nil
            else { throw malformed("`\(name)` is not an http(s) URL") }
            return url
        }
        func seconds(_ name: String) throws -> Int? {
            switch members[name] {
            case nil, .null?: return nil
            case let number?:
                guard let seconds = number.intValue, seconds > 0, seconds <= maxSeconds else {
                    throw malformed("`\(name)` is not a whole number of seconds between 1 and a day")
                }
                return seconds
            }
        }
        guard let expiresIn = try seconds("expires_in") else { throw malformed("`expires_in` is missing") }
        return DeviceAuthorization(
            deviceCode: try text("device_code"),
            userCode: try text("user_code"),
            verificationURI: try link("verification_uri"),
            verificationURIComplete: [nil, .null].contains(members["verification_uri_complete"])
                ? nil : try link("verification_uri_complete"),
            expiresIn: .seconds(expiresIn),
            interval: .seconds(try seconds("interval") ?? 5),
            receivedAt: receivedAt
        )
    }

    private static func malformed(_ problem: String) -> APIError {
        .apiError(
            APIError.Details(
                message: "The device authorization answer is not usable: \(problem).",
                hint: "The server answered in a way RFC 8628 does not allow; try the browser sign-in.",
                httpStatus: 200
            )
        )
    }
}

extension DeviceAuthorization: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The user code, URI and timing; the device code is shown as `[REDACTED]`.
    public var description: String {
        "DeviceAuthorization(deviceCode: \(Redactor.placeholder), userCode: \(userCode), verificationURI: \(verificationURI.absoluteString), expiresIn: \(expiresIn), interval: \(interval))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// No device code, so `dump` shows none.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "userCode": userCode, "verificationURI": verificationURI, "expiresIn": expiresIn, "interval": interval,
            ]
        )
    }
}

/// What the device flow tells its caller while it runs, to show the user.
public enum DeviceFlowUpdate: Sendable {
    /// The server issued codes: show the user code and verification URI now.
    case codeIssued(DeviceAuthorization)
    /// The user has not finished; the next poll comes after this wait.
    case waiting(nextPollIn: Duration)
    /// The server asked for slower polling; every poll from now on waits `interval`.
    case slowedDown(interval: Duration)
    /// The server answered 429; the next poll waits `retryAfter`.
    case rateLimited(retryAfter: Duration)
    /// The user approved: these are the new credentials, and the flow is over.
    case signedIn(TokenCredentials)
}
