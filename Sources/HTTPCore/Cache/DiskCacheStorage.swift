import Crypto
public import Foundation
import HTTPTypes

/// Keeps cache entries as files in one directory, so they survive the process.
///
/// Each entry is one file written atomically (to a temporary file, then renamed), with a
/// SHA-256 digest of its body. A file that is truncated, corrupt or written by something else is
/// treated as absent and deleted — never a crash. The directory is created with permissions
/// 0700 because cached responses may be private.
///
/// ```swift
/// let directory = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
///     .appending(path: "MyApp/HTTPCache")
/// let cache = ResponseCache(storage: DiskCacheStorage(directory: directory))
/// ```
///
/// The storage enforces its own size cap in addition to the cache's limits, evicting the files
/// used least recently in this process (or written longest ago, for files from earlier runs).
public final class DiskCacheStorage: CacheStorage {
    /// The directory the entries live in.
    public let directory: URL
    /// The most bytes of files kept.
    public let maxBytes: Int

    private struct FileRecord: Sendable {
        var size: Int
        var lastUse: UInt64
    }

    private struct State: Sendable {
        var scanned = false
        var files: [String: FileRecord] = [:]
        var totalBytes = 0
        var useCounter: UInt64 = 0
    }

    private let state = Locked(State())

    /// Creates a store in `directory`, which is created when first written to.
    ///
    /// - Parameters:
    ///   - directory: A directory used only by this store.
    ///   - maxBytes: The most bytes of files kept (default 64 MiB).
    public init(directory: URL, maxBytes: Int = 64 * 1024 * 1024) {
        self.directory = directory
        self.maxBytes = max(maxBytes, 0)
    }

    /// Every readable entry, oldest write first; unreadable files are deleted.
    public func summaries() -> [CacheEntrySummary] {
        state.withLock { state in
            scan(&state)
            var found: [(summary: CacheEntrySummary, lastUse: UInt64)] = []
            for (name, record) in state.files {
                let url = fileURL(name)
                guard let header = Self.readHeader(of: url), header.metadata.key.fileNameSafe == name,
                    header.fileSize == header.metadataEnd + header.metadata.bodyLength
                else {
                    remove(name, from: &state)
                    continue
                }
                let summary = CacheEntrySummary(
                    key: header.metadata.key,
                    primaryKey: header.metadata.primaryKey,
                    urlKey: header.metadata.urlKey,
                    varyHeaders: header.metadata.varyHeaders,
                    byteCount: header.metadata.byteCount,
                    displayURL: header.metadata.displayURL
                )
                found.append((summary, record.lastUse))
            }
            return found.sorted { $0.lastUse < $1.lastUse }.map(\.summary)
        }
    }

    /// The entry under `key`, or `nil` when it is missing or damaged (a damaged file is deleted).
    public func entry(forKey key: String) -> CachedResponse? {
        let name = key.fileNameSafe
        return state.withLock { state in
            scan(&state)
            guard state.files[name] != nil else { return nil }
            guard let data = try? Data(contentsOf: fileURL(name)), let entry = Self.decode(data), entry.key == key
            else {
                remove(name, from: &state)
                return nil
            }
            state.useCounter += 1
            state.files[name]?.lastUse = state.useCounter
            return entry
        }
    }

    /// Writes `entry` atomically, then deletes the least recently used files beyond
    /// ``maxBytes``.
    ///
    /// - Throws: When the directory cannot be created or the file written, or the entry alone is
    ///   larger than ``maxBytes``.
    public func store(_ entry: CachedResponse) throws {
        let data = try Self.encode(entry)
        let name = entry.key.fileNameSafe
        try state.withLock { state in
            scan(&state)
            guard data.count <= maxBytes else {
                remove(name, from: &state)
                throw DiskCacheError(message: "The entry is larger than the disk cache's limit.")
            }
            try PrivateFile.createFolder(directory)
            try data.write(to: fileURL(name), options: .atomic)
            if let old = state.files[name] { state.totalBytes -= old.size }
            state.useCounter += 1
            state.files[name] = FileRecord(size: data.count, lastUse: state.useCounter)
            state.totalBytes += data.count
            while state.totalBytes > maxBytes {
                guard
                    let oldest = state.files.lazy.filter({ $0.key != name })
                        .min(by: { $0.value.lastUse < $1.value.lastUse })?.key
                else { break }
                remove(oldest, from: &state)
            }
        }
    }

    /// Deletes the file for `key`.
    public func removeEntry(forKey key: String) {
        state.withLock { state in
            scan(&state)
            remove(key.fileNameSafe, from: &state)
        }
    }

    /// Deletes every entry file (other files in the directory are left alone).
    public func removeAll() {
        state.withLock { state in
            scan(&state)
            for name in state.files.keys { remove(name, from: &state) }
        }
    }

    // MARK: Files

    private static let fileExtension = "httpcache"

    private func fileURL(_ name: String) -> URL {
        directory.appendingPathComponent(name + "." + Self.fileExtension, isDirectory: false)
    }

    private func remove(_ name: String, from state: inout State) {
        try? FileManager.default.removeItem(at: fileURL(name))
        if let record = state.files.removeValue(forKey: name) { state.totalBytes -= record.size }
    }

    /// Lists the directory once, ordering existing files by modification time.
    private func scan(_ state: inout State) {
        guard !state.scanned else { return }
        state.scanned = true
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        guard
            let urls = try? FileManager.default.contentsOfDirectory(
                at: directory,
                includingPropertiesForKeys: keys,
                options: [.skipsHiddenFiles]
            )
        else { return }
        var found: [(name: String, size: Int, modified: Date)] = []
        for url in urls where url.pathExtension == Self.fileExtension {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else {
                continue
            }
            found.append(
                (
                    url.deletingPathExtension().lastPathComponent, values.fileSize ?? 0,
                    values.contentModificationDate ?? .distantPast
                )
            )
        }
        for file in found.sorted(by: { $0.modified < $1.modified }) {
            state.useCounter += 1
            state.files[file.name] = FileRecord(size: file.size, lastUse: state.useCounter)
            state.totalBytes += file.size
        }
    }

    // MARK: Format
    //
    // magic "HTTPCoreCache2\n" · metadata length (UInt32, big-endian) · metadata JSON · body.
    // The metadata carries the body's length and SHA-256 digest, so truncation and bit rot are
    // detected before anything is returned.

    private static let magic = Data("HTTPCoreCache2\n".utf8)
    private static let maxMetadataLength = 1024 * 1024

    private struct Metadata: Codable {
        var key: String
        var primaryKey: String
        var urlKey: String
        var varyHeaders: [String]
        var status: Int
        var headers: [[String]]
        var storedAt: Double
        var displayURL: String
        var bodyLength: Int
        var bodyDigest: String
        var byteCount: Int
    }

    private struct Header {
        var metadata: Metadata
        var metadataEnd: Int
        var fileSize: Int
    }

    private static func encode(_ entry: CachedResponse) throws -> Data {
        let metadata = Metadata(
            key: entry.key,
            primaryKey: entry.primaryKey,
            urlKey: entry.urlKey,
            varyHeaders: entry.varyHeaders,
            status: entry.status,
            headers: entry.headers.map { [$0.name.rawName, $0.value] },
            storedAt: entry.storedAt.timeIntervalSince1970,
            displayURL: entry.displayURL,
            bodyLength: entry.body.count,
            bodyDigest: SHA256.hash(data: entry.body).hexString,
            byteCount: entry.byteCount
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let json = try encoder.encode(metadata)
        var data = magic
        data.reserveCapacity(magic.count + 4 + json.count + entry.body.count)
        withUnsafeBytes(of: UInt32(json.count).bigEndian) { data.append(contentsOf: $0) }
        data.append(json)
        data.append(entry.body)
        return data
    }

    private static func parseHeader(_ prefix: Data, fileSize: Int) -> Header? {
        let bytes = [UInt8](prefix.prefix(magic.count + 4))
        guard bytes.count == magic.count + 4, Data(bytes.prefix(magic.count)) == magic else { return nil }
        let length = bytes.suffix(4).reduce(0) { $0 << 8 | Int($1) }
        let start = magic.count + 4
        guard length > 0, length <= maxMetadataLength, prefix.count >= start + length else { return nil }
        let json = prefix.subdata(in: (prefix.startIndex + start)..<(prefix.startIndex + start + length))
        // A corrupt file (the metadata has no checksum) is no entry: a length past the file's
        // end would overflow the sums below, and a status outside HTTP's would trap in HTTPTypes.
        guard let metadata = try? JSONDecoder().decode(Metadata.self, from: json),
            (0...fileSize).contains(metadata.bodyLength), (100...599).contains(metadata.status)
        else { return nil }
        return Header(metadata: metadata, metadataEnd: start + length, fileSize: fileSize)
    }

    /// Reads only the header of a file, for rebuilding the index without reading bodies.
    private static func readHeader(of url: URL) -> Header? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let fileSize = try? handle.seekToEnd(), (try? handle.seek(toOffset: 0)) != nil,
            let start = try? handle.read(upToCount: magic.count + 4), start.count == magic.count + 4
        else { return nil }
        let length = start.suffix(4).reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length <= maxMetadataLength,
            let json = try? handle.read(upToCount: length), json.count == length
        else { return nil }
        return parseHeader(start + json, fileSize: Int(fileSize))
    }

    private static func decode(_ data: Data) -> CachedResponse? {
        guard let header = parseHeader(data, fileSize: data.count),
            data.count == header.metadataEnd + header.metadata.bodyLength
        else { return nil }
        let metadata = header.metadata
        let body = data.subdata(in: (data.startIndex + header.metadataEnd)..<data.endIndex)
        guard SHA256.hash(data: body).hexString == metadata.bodyDigest else { return nil }
        var headers = HTTPFields()
        for pair in metadata.headers {
            guard pair.count == 2, let name = HTTPField.Name(pair[0]) else { return nil }
            headers.append(HTTPField(name: name, value: pair[1]))
        }
        return CachedResponse(
            key: metadata.key,
            primaryKey: metadata.primaryKey,
            urlKey: metadata.urlKey,
            varyHeaders: metadata.varyHeaders,
            status: metadata.status,
            headers: headers,
            body: body,
            storedAt: Date(timeIntervalSince1970: metadata.storedAt),
            displayURL: metadata.displayURL
        )
    }
}

/// Why the disk store could not write an entry.
struct DiskCacheError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension String {
    /// The key itself when it is a plain hex digest (what ``ResponseCache`` produces), else its
    /// digest, so a custom key can never name a path outside the directory.
    fileprivate var fileNameSafe: String {
        let isSafe =
            !isEmpty && utf8.count <= 128
            && utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        return isSafe ? self : CacheKeyHasher.hex(self)
    }
}
