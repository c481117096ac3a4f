import Crypto
import Foundation
import HTTPTypes

/// The HMAC-SHA256 signature a sender puts on each delivery: the hex digest of the raw request
/// body, keyed by a secret both sides share, in a header the sender names.
///
/// ```swift
/// let signature = WebhookSignature(secret: secret, headerName: .init("X-Basecamp-Signature")!)
/// signature.isValid(request.headerFields[signature.headerName], for: body)
/// ```
///
/// Verification compares the digests in constant time. An empty secret or an empty signature
/// never verifies, so a misconfigured receiver refuses everything instead of accepting forgeries.
/// The secret is never part of the value's description.
public struct WebhookSignature: Sendable, CustomStringConvertible {
    /// The header that carries the signature.
    public let headerName: HTTPField.Name
    private let key: SymmetricKey?

    /// A signature keyed by `secret` (its UTF-8 bytes), read from `headerName`.
    public init(secret: String, headerName: HTTPField.Name) {
        self.headerName = headerName
        key = secret.isEmpty ? nil : SymmetricKey(data: Data(secret.utf8))
    }

    /// The lowercase hex HMAC-SHA256 of `body`, as a sender puts it in the header; empty when
    /// the secret is empty (an empty signature never verifies).
    public func signature(for body: some DataProtocol) -> String {
        guard let key else { return "" }
        let code = HMAC<SHA256>.authenticationCode(for: body, using: key)
        return code.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Whether `signature` (hex, either case, surrounding spaces ignored) is the HMAC-SHA256 of
    /// `body` under this secret. `nil`, empty, malformed or wrong-length signatures are invalid.
    public func isValid(_ signature: String?, for body: some DataProtocol) -> Bool {
        guard let key, let signature, let code = Self.bytes(fromHex: signature), code.count == SHA256.byteCount
        else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: body, using: key)
    }

    /// Names the header, never the secret.
    public var description: String { "WebhookSignature(header: \(headerName))" }

    /// The bytes `text` spells in hex, or `nil` when it is empty, of odd length or not hex.
    static func bytes(fromHex text: String) -> [UInt8]? {
        let digits = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
