import Foundation

/// Writes a zip archive whose entries are stored uncompressed (method 0), which every unzip tool
/// reads and which needs no compression library: enough for the sandbox's small backups.
///
/// Layout (APPNOTE 6.3.x): for each entry a local file header and its bytes, then the central
/// directory and its end record. Names are UTF-8 (general-purpose bit 11); times are DOS times
/// of the given date in UTC, as the real backups' timestamps are.
struct StoredZip {
    struct Entry {
        var name: String
        var bytes: [UInt8]
    }

    var entries: [Entry] = []
    /// The modification time of every entry.
    var modified: Date

    /// The archive's bytes.
    func archive() -> [UInt8] {
        var output: [UInt8] = []
        var central: [UInt8] = []
        let (time, date) = dosTimeAndDate(modified)
        for entry in entries {
            let name = Array(entry.name.utf8)
            let crc = CRC32.checksum(entry.bytes)
            let size = UInt32(entry.bytes.count)
            let offset = UInt32(output.count)
            // Local file header.
            output.append(le32: 0x0403_4B50)
            output.append(le16: 20)  // version needed: 2.0
            output.append(le16: 0x0800)  // flags: names are UTF-8
            output.append(le16: 0)  // method: stored
            output.append(le16: time)
            output.append(le16: date)
            output.append(le32: crc)
            output.append(le32: size)  // compressed size
            output.append(le32: size)  // uncompressed size
            output.append(le16: UInt16(name.count))
            output.append(le16: 0)  // extra field length
            output.append(contentsOf: name)
            output.append(contentsOf: entry.bytes)
            // Central directory header.
            central.append(le32: 0x0201_4B50)
            central.append(le16: 0x0314)  // made by: Unix, 2.0
            central.append(le16: 20)
            central.append(le16: 0x0800)
            central.append(le16: 0)
            central.append(le16: time)
            central.append(le16: date)
            central.append(le32: crc)
            central.append(le32: size)
            central.append(le32: size)
            central.append(le16: UInt16(name.count))
            central.append(le16: 0)  // extra field length
            central.append(le16: 0)  // comment length
            central.append(le16: 0)  // disk number
            central.append(le16: 0)  // internal attributes
            central.append(le32: 0o100644 << 16)  // external attributes: a regular file, rw-r--r--
            central.append(le32: offset)
            central.append(contentsOf: name)
        }
        let centralOffset = UInt32(output.count)
        output.append(contentsOf: central)
        // End of central directory record.
        output.append(le32: 0x0605_4B50)
        output.append(le16: 0)  // this disk
        output.append(le16: 0)  // disk with the central directory
        output.append(le16: UInt16(entries.count))
        output.append(le16: UInt16(entries.count))
        output.append(le32: UInt32(central.count))
        output.append(le32: centralOffset)
        output.append(le16: 0)  // comment length
        return output
    }

    /// MS-DOS time (2-second resolution) and date (from 1980) of `date` in UTC.
    private func dosTimeAndDate(_ date: Date) -> (time: UInt16, date: UInt16) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = min(max((parts.year ?? 1980) - 1980, 0), 127)
        let time = ((parts.hour ?? 0) << 11) | ((parts.minute ?? 0) << 5) | ((parts.second ?? 0) / 2)
        let day = (year << 9) | ((parts.month ?? 1) << 5) | (parts.day ?? 1)
        return (UInt16(time), UInt16(day))
    }
}

/// CRC-32 as zip uses it (IEEE 802.3, reflected polynomial 0xEDB88320): a checksum, not
/// cryptography, so it is computed here rather than taken from a crypto library.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { byte in
        var value = UInt32(byte)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }
}

extension [UInt8] {
    fileprivate mutating func append(le16 value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }

    fileprivate mutating func append(le32 value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            append(UInt8((value >> UInt32(shift)) & 0xFF))
        }
    }
}
