import Crypto
import Foundation

/// Random strings for PKCE verifiers and `state`, and constant-time comparison of secrets.
enum SecureRandom {
    /// `byteCount` bytes from the system's cryptographic generator, Base64URL-encoded without
    /// padding: 32 bytes give 43 characters and 256 bits of entropy.
    static func token(byteCount: Int = 32) -> String {
        // SystemRandomNumberGenerator reads the kernel's CSPRNG (getrandom, arc4random).
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return base64URL(bytes)
    }

    /// RFC 4648 §5 Base64URL without `=` padding, as PKCE (RFC 7636 §4.2) requires.
    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether two secrets are equal, in time that does not depend on where they differ.
    ///
    /// Compares SHA-256 digests, whose equality swift-crypto checks in constant time; hashing
    /// first also hides the secrets' lengths.
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        SHA256.hash(data: Data(lhs.utf8)) == SHA256.hash(data: Data(rhs.utf8))
    }
}
