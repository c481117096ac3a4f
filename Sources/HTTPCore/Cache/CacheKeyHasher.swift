import Crypto
import Foundation

/// SHA-256 over a sequence of text fields, each with its length in front, so concatenated
/// fields cannot be confused (`"ab" + "c"` and `"a" + "bc"` hash differently).
///
/// Cache keys are built from credentials; a one-way hash means a key, a file name or a hook
/// payload never lets anyone recover the token, and two users never share an entry by accident.
struct CacheKeyHasher {
    private var sha256 = SHA256()

    /// Adds `text`, length first.
    mutating func update(field text: String) {
        let bytes = Data(text.utf8)
        withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { sha256.update(bufferPointer: $0) }
        sha256.update(data: bytes)
    }

    /// The digest as 64 lowercase hex digits.
    func finalize() -> String {
        sha256.finalize().hexString
    }

    /// The SHA-256 digest of `text` alone, as 64 lowercase hex digits.
    static func hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).hexString
    }
}

extension Digest {
    /// The digest as lowercase hex digits.
    var hexString: String {
        map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
