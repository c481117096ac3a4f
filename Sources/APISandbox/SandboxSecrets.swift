import Foundation

/// Values a sandbox issues as secrets (codes, tokens, session keys), from the system's
/// cryptographic generator: a client cannot guess them, as it cannot guess a real service's.
public enum SandboxSecrets {
    /// `prefix` followed by 32 random hex digits (128 bits), e.g. `sbx_at_3f9c…`.
    public static func make(_ prefix: String = "") -> String {
        var generator = SystemRandomNumberGenerator()
        return prefix
            + (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
