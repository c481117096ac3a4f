import Crypto
import Foundation
import HTTPCore

/// A PKCE (RFC 7636) code verifier and its S256 challenge.
///
/// The verifier stays with the app until the code exchange; only the challenge travels in the
/// authorization URL, so a stolen authorization code is useless without it.
///
/// ```swift
/// let pkce = PKCE()
/// pkce.challenge        // goes in the authorization URL with code_challenge_method=S256
/// pkce.verifier         // goes in the token request
/// ```
///
/// Printing or dumping a `PKCE` never shows the verifier.
public struct PKCE: Sendable, Hashable {
    /// The challenge method; only `S256` is offered (`plain` protects nothing).
    public static let method = "S256"

    /// The secret: 43 to 128 characters from `A–Z a–z 0–9 - . _ ~`.
    public let verifier: String
    /// `BASE64URL(SHA256(verifier))`, without padding.
    public let challenge: String

    /// A fresh verifier of 43 characters (32 random bytes) and its challenge.
    public init() {
        self.verifier = SecureRandom.token(byteCount: 32)
        self.challenge = Self.challenge(for: verifier)
    }

    /// A verifier of your own, checked against RFC 7636's rules.
    ///
    /// - Throws: ``APIError/usage(_:)`` when it is shorter than 43 or longer than 128
    ///   characters or holds a character outside `A–Z a–z 0–9 - . _ ~`.
    public init(verifier: String) throws {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        guard (43...128).contains(verifier.count), verifier.allSatisfy({ allowed.contains($0) }) else {
            throw APIError.usage(
                "A PKCE verifier must be 43 to 128 characters of A–Z, a–z, 0–9 and - . _ ~ (RFC 7636)."
            )
        }
        self.verifier = verifier
        self.challenge = Self.challenge(for: verifier)
    }

    /// The S256 challenge for `verifier`: `BASE64URL(SHA256(ASCII(verifier)))`.
    public static func challenge(for verifier: String) -> String {
        SecureRandom.base64URL(SHA256.hash(data: Data(verifier.utf8)))
    }
}

extension PKCE: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The challenge; the verifier is shown as `[REDACTED]`.
    public var description: String { "PKCE(verifier: \(Redactor.placeholder), challenge: \(challenge))" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// Only the challenge, so `dump` shows no verifier.
    public var customMirror: Mirror { Mirror(self, children: ["challenge": challenge]) }
}
