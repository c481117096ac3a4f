import Foundation

/// Values a sandbox issues as secrets (codes, tokens, session keys), from the system's
/// cryptographic generator: a client cannot guess them, as it cannot guess a real service's.
public enum SandboxSecrets {
    /// `prefix` followed by 32 random hex digits (128 bits), e.g. `sbx_at_3f9c…`.
    public static func make(_ prefix: String = "") -> String {
        prefix + hex(randomBytes(16))
    }

    /// A token shaped as Launchpad's are, a signed Rails message: `BAh`, base64 with its `=`
    /// padding, `--` and a 40-digit hex digest, e.g. `BAhq0Rk…Vw==--3f9c…`. A client that holds
    /// tokens to RFC 6750's narrower syntax fails against the sandbox as it would against Basecamp.
    public static func signedMessage() -> String {
        "BAh" + Data(randomBytes(16)).base64EncodedString() + "--" + hex(randomBytes(20))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
