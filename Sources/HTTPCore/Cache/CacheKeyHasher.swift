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
        var text = text
        text.withUTF8 { bytes in
            withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { sha256.update(bufferPointer: $0) }
            sha256.update(bufferPointer: UnsafeRawBufferPointer(bytes))
        }
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
        var digits: [UInt8] = []
        digits.reserveCapacity(Self.byteCount * 2)
        for byte in self {
            digits.append(Self.hexDigit(byte >> 4))
            digits.append(Self.hexDigit(byte & 0x0f))
        }
        return String(decoding: digits, as: UTF8.self)
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
