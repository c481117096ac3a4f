import Foundation

/// SHA-256 (FIPS 180-4), written by hand because HTTPCore may depend on nothing but Foundation
/// and swift-http-types.
///
/// Cache keys are built from credentials; hashing them with a one-way function means a key, a
/// file name or a hook payload never lets anyone recover the token, and two users can never
/// share an entry by accident (a 64-bit non-cryptographic hash could, in principle, collide).
package struct SHA256Hasher {
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    package init() {
        pending.reserveCapacity(64)
    }

    /// Adds `bytes` to the message.
    package mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(contiguous: buffer)
        }
        if handled == nil {
            Array(bytes).withUnsafeBufferPointer { update(contiguous: $0) }
        }
    }

    private mutating func update(contiguous bytes: UnsafeBufferPointer<UInt8>) {
        length &+= UInt64(bytes.count)
        var index = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            index = take
            guard pending.count == 64 else { return }
            let block = pending
            block.withUnsafeBufferPointer { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - index >= 64 {
            compress(UnsafeBufferPointer(rebasing: bytes[index..<(index + 64)]))
            index += 64
        }
        pending.append(contentsOf: bytes[index...])
    }

    /// Adds the UTF-8 bytes of `text`.
    package mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(contiguous: $0) }
    }

    /// Adds `text` with its length in front, so concatenated fields cannot be confused
    /// (`"ab" + "c"` and `"a" + "bc"` hash differently).
    package mutating func updateField(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { prefix in
                prefix.withMemoryRebound(to: UInt8.self) { update(contiguous: $0) }
            }
            update(contiguous: bytes)
        }
    }

    /// The 32-byte digest. The hasher is consumed.
    package consuming func finalize() -> [UInt8] {
        let bitLength = length &* 8
        // The padding: 0x80, zeros up to 56 bytes into a block, then the length; one or two blocks.
        let tailCount = pending.count < 56 ? 64 : 128
        let pendingBytes = pending
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: tailCount) { tail in
            tail.initialize(repeating: 0)
            _ = pendingBytes.withUnsafeBufferPointer { tail.update(fromContentsOf: $0) }
            tail[pendingBytes.count] = 0x80
            withUnsafeBytes(of: bitLength.bigEndian) { lengthBytes in
                for (offset, byte) in lengthBytes.enumerated() { tail[tailCount - 8 + offset] = byte }
            }
            let bytes = UnsafeBufferPointer(tail)
            compress(UnsafeBufferPointer(rebasing: bytes[0..<64]))
            if tailCount == 128 { compress(UnsafeBufferPointer(rebasing: bytes[64..<128])) }
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in state {
            withUnsafeBytes(of: word.bigEndian) { digest.append(contentsOf: $0) }
        }
        return digest
    }

    /// The digest of `text` as 64 lowercase hex digits.
    package static func hex(_ text: String) -> String {
        var hasher = SHA256Hasher()
        hasher.update(text)
        return hexString(hasher.finalize())
    }

    /// Lowercase hex of `bytes`.
    package static func hexString(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            result.append(digits[Int(byte >> 4)])
            result.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Runs one 64-byte block through the compression function.
    private mutating func compress(_ block: UnsafeBufferPointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { words in
            compress(block, words: words)
        }
    }

    private mutating func compress(_ block: UnsafeBufferPointer<UInt8>, words: UnsafeMutableBufferPointer<UInt32>) {
        for wordIndex in 0..<16 {
            let byteIndex = wordIndex * 4
            words[wordIndex] =
                UInt32(block[byteIndex]) << 24 | UInt32(block[byteIndex + 1]) << 16
                | UInt32(block[byteIndex + 2]) << 8 | UInt32(block[byteIndex + 3])
        }
        for index in 16..<64 {
            let s0 = rotate(words[index - 15], 7) ^ rotate(words[index - 15], 18) ^ (words[index - 15] >> 3)
            let s1 = rotate(words[index - 2], 17) ^ rotate(words[index - 2], 19) ^ (words[index - 2] >> 10)
            words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
        }
        var a = state[0]
        var b = state[1]
        var c = state[2]
        var d = state[3]
        var e = state[4]
        var f = state[5]
        var g = state[6]
        var h = state[7]
        for index in 0..<64 {
            let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ sum1 &+ choice &+ Self.roundConstants[index] &+ words[index]
            let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = sum0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ temp1
            d = c
            c = b
            b = a
            a = temp1 &+ temp2
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value >> count | value << (32 - count)
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

/// FNV-1a, 64 bits: a fast checksum for detecting damaged cache files. Not a security
/// boundary — SHA-256 does the keying — only a check that bytes read back are bytes written.
package enum FNV1a64 {
    /// The hash of `bytes`.
    package static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
