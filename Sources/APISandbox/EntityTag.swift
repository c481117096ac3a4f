import Foundation

/// Entity tags as a sandbox answers conditional requests with them.
public enum EntityTag {
    // Inlinable so that a caller's `Data` or `[UInt8]` is hashed by a loop specialised for it,
    // not byte by byte through a generic iterator.
    /// A strong validator from a body's bytes (64-bit FNV-1a, quoted), so equal bodies share a tag.
    @inlinable
    public static func of(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Whether the `If-None-Match` values name `etag` by the weak comparison (RFC 9110 §13.1.2):
    /// `*`, or any listed tag equal to it once `W/` is dropped.
    public static func noneMatch(_ values: [String], names etag: String) -> Bool {
        let tags = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        return tags.contains { tag in
            tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == etag
        }
    }
}
