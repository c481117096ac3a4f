import Foundation

/// Entity tags as a sandbox answers conditional requests with them.
public enum EntityTag {
    /// A strong validator from a body's bytes (64-bit FNV-1a, quoted), so equal bodies share a tag.
    public static func of(_ bytes: some Sequence<UInt8>) -> String {
        // `Data`'s iterator is not inlined across modules; its buffer is read at full speed.
        let hash = bytes.withContiguousStorageIfAvailable { fnv1a($0) } ?? fnv1a(bytes)
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    private static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
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
