import Foundation
import HTTPCoreTesting
import HTTPTypes
import Testing

@testable import HTTPCore

/// A fresh directory under the system's temporary directory, removed by `cleanUp`.
struct TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("httpcore-cache-tests-\(UUID().uuidString)", isDirectory: true)
    }

    var files: [URL] {
        (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
    }

    /// A response cache stored in the directory.
    var diskCache: ResponseCache { ResponseCache(storage: DiskCacheStorage(directory: url)) }

    func cleanUp() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A transport answering 304 to requests for ETag `"v1"` and `{"name": name, "version": 1}`
/// otherwise.
func revalidatingTransport(name: String = "disk") -> ScriptedTransport {
    ScriptedTransport(clock: nil) { request in
        if request.header("If-None-Match") == "\"v1\"" {
            return TransportResponse(response: HTTPResponse(status: .notModified), url: request.url)
        }
        return TransportResponse(
            response: HTTPResponse(status: .ok, headerFields: [.eTag: "\"v1\""]),
            body: Data(#"{"name":"\#(name)","version":1}"#.utf8),
            url: request.url
        )
    }
}

@Suite("Cache storage")
struct CacheStorageTests {
    private let endpoint = Endpoint<Resource>(.get, "resources/1")

    @Test("Disk store: a new client with a new cache on the same directory revalidates the stored entry")
    func diskSurvivesNewClient() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }

        let firstTransport = revalidatingTransport()
        let firstClient = try makeCachingClient(firstTransport, cache: directory.diskCache)
        _ = try await firstClient.send(endpoint)
        #expect(directory.files.count == 1)

        let secondTransport = revalidatingTransport()
        let reopened = directory.diskCache
        #expect(try await reopened.count == 1)
        let secondClient = try makeCachingClient(secondTransport, cache: reopened)
        let response = try await secondClient.response(endpoint)
        #expect(secondTransport.requests.count == 1)
        #expect(secondTransport.requests[0].header("If-None-Match") == "\"v1\"")
        #expect(response.fromCache)
        #expect(response.value == Resource(name: "disk", version: 1))
    }

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case truncated, garbage, empty, flippedBodyByte, badMetadata, hugeBodyLength, impossibleStatus
        var testDescription: String { rawValue }

        /// `data` with `old` replaced by `new` in its metadata, the length before it kept right.
        private static func editingMetadata(_ data: Data, _ old: String, _ new: String) -> Data {
            let bytes = [UInt8](data)
            guard let open = bytes.firstIndex(of: UInt8(ascii: "{")), open >= 4 else { return data }
            let length = bytes[(open - 4)..<open].reduce(0) { $0 << 8 | Int($1) }
            let json = String(decoding: bytes[open..<(open + length)], as: UTF8.self)
            let edited = Array(json.replacingOccurrences(of: old, with: new).utf8)
            let count = UInt32(edited.count)
            let prefix = [
                UInt8(count >> 24 & 0xff), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff), UInt8(count & 0xff),
            ]
            return Data(bytes[..<(open - 4)] + prefix + edited + bytes[(open + length)...])
        }

        func apply(to data: Data) -> Data {
            switch self {
            case .truncated: return data.prefix(data.count - 5)
            case .garbage: return Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            case .empty: return Data()
            case .flippedBodyByte:
                var copy = data
                copy[copy.index(before: copy.endIndex)] ^= 0xff
                return copy
            case .badMetadata:
                var copy = data
                copy[copy.startIndex + 20] = UInt8(ascii: "}")
                return copy
            case .hugeBodyLength:
                return Self.editingMetadata(data, #""bodyLength":"#, #""bodyLength":9223372036854775000,"ignored":"#)
            case .impossibleStatus:
                return Self.editingMetadata(data, #""status":200"#, #""status":1234"#)
            }
        }
    }

    @Test("Disk store: a damaged entry file is a miss, never a crash", arguments: Damage.allCases)
    func diskCorruptedFile(damage: Damage) async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        _ = try await makeCachingClient(revalidatingTransport(), cache: directory.diskCache).send(endpoint)
        let file = try #require(directory.files.first)
        let original = try Data(contentsOf: file)
        let damaged = damage.apply(to: original)
        #expect(damaged != original)
        try damaged.write(to: file)

        let transport = revalidatingTransport()
        let cache = directory.diskCache
        let response = try await makeCachingClient(transport, cache: cache).response(endpoint)
        #expect(transport.requests[0].header("If-None-Match") == nil)
        #expect(!response.fromCache)
        #expect(response.value.name == "disk")
        // The damaged file was replaced by a good one.
        let again = try await makeCachingClient(revalidatingTransport(), cache: directory.diskCache).response(endpoint)
        #expect(again.fromCache)
    }

    @Test("Disk store: a damaged file found on first read (index already built) is a miss")
    func diskDamagedAfterIndexing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let transport = revalidatingTransport()
        let cache = directory.diskCache
        let client = try makeCachingClient(transport, cache: cache)
        _ = try await client.send(endpoint)
        let file = try #require(directory.files.first)
        try Data("not a cache file".utf8).write(to: file)
        let response = try await client.response(endpoint)
        #expect(!response.fromCache)
        #expect(transport.requests[1].header("If-None-Match") == nil)
    }

    @Test("Disk store: files are bounded by maxBytes, oldest first; other files are left alone")
    func diskMaxBytes() throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let storage = DiskCacheStorage(directory: directory.url, maxBytes: 3500)
        func entry(_ key: String) -> CachedResponse {
            .stored(
                under: key,
                headers: [.eTag: "\"x\""],
                body: Data(repeating: 7, count: 1000),
                storedAt: Date(timeIntervalSince1970: 0),
                displayURL: "https://api.example.com/\(key)"
            )
        }
        try storage.store(entry("aa"))
        try storage.store(entry("bb"))
        #expect(storage.entry(forKey: "aa") != nil)  // aa is now the most recent
        try storage.store(entry("cc"))
        #expect(storage.entry(forKey: "bb") == nil)
        #expect(storage.entry(forKey: "aa")?.body.count == 1000)
        #expect(storage.entry(forKey: "cc") != nil)
        #expect(throws: (any Error).self) { try storage.store(entry("dd").withBody(count: 5000)) }

        let bystander = directory.url.appendingPathComponent("notes.txt")
        try Data("keep me".utf8).write(to: bystander)
        storage.removeAll()
        #expect(storage.summaries().isEmpty)
        #expect(FileManager.default.fileExists(atPath: bystander.path))
    }

    @Test("Disk store: keys that are not hex digests cannot escape the directory")
    func diskHostileKey() throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let storage = DiskCacheStorage(directory: directory.url)
        let key = "../../etc/passwd"
        try storage.store(.stored(under: key, body: Data("x".utf8)))
        #expect(directory.files.count == 1)
        #expect(storage.entry(forKey: key)?.body == Data("x".utf8))
    }

    @Test("Disk store: the files hold no credential, only digests and the redacted URL")
    func diskHoldsNoSecrets() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let transport = revalidatingTransport()
        let client = try makeCachingClient(transport, cache: directory.diskCache) {
            $0.redactor.addSecretQueryParameter("api_key")
        }
        _ = try await client.send(
            Endpoint<Resource>(
                .get,
                "resources/1",
                query: ["api_key": "query-secret-123"],
                headers: [.authorization: "Bearer header-secret-456"]
            )
        )
        let file = try #require(directory.files.first)
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(!text.contains("query-secret-123"))
        #expect(!text.contains("header-secret-456"))
        #expect(text.contains("resources/1"))
    }

    @Test("Memory store round trip")
    func memoryStore() {
        let storage = MemoryCacheStorage()
        let entry = CachedResponse(
            key: "k",
            primaryKey: "p",
            urlKey: "u",
            varyHeaders: [],
            status: 200,
            headers: [:],
            body: Data("b".utf8),
            storedAt: Date(),
            displayURL: "d"
        )
        storage.store(entry)
        #expect(storage.entry(forKey: "k") == entry)
        #expect(storage.summaries().map(\.key) == ["k"])
        storage.removeEntry(forKey: "k")
        #expect(storage.entry(forKey: "k") == nil)
    }

    // The digests are worked out independently (Python's hashlib over the same length-prefixed
    // fields), so keys, and the names of files a disk cache already holds, stay what they were.
    @Test("Cache keys are SHA-256 over length-prefixed method, URL and credential fields")
    func keyDigests() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/x"))
        let anonymous = HTTPRequest(method: .get, url: url)
        #expect(
            ResponseCache.requestKey(for: anonymous, url: url.absoluteString, redactor: Redactor()).primary
                == "1b2e3f0f26046c6799553bd33710a9567e272a9aa5b67ec682c5fb7f47c99323"
        )
        let signed = HTTPRequest(method: .get, url: url, headerFields: [.authorization: "Bearer t"])
        #expect(
            ResponseCache.requestKey(for: signed, url: url.absoluteString, redactor: Redactor()).primary
                == "351342c961e490ff7baa26d7252b86751abf397eade2bfc828d58a979365b003"
        )
        #expect(ResponseCache.urlKey(url) == "32177c4bd3481ccd0b5600eaa2279d730ec3f82dc9742ac1a2248575c24c15b9")
        #expect(CacheKeyHasher.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

extension CachedResponse {
    /// A 200 entry whose primary and URL keys are its key, as the disk store tests need.
    fileprivate static func stored(
        under key: String,
        headers: HTTPFields = [:],
        body: Data,
        storedAt: Date = Date(),
        displayURL: String = ""
    ) -> CachedResponse {
        CachedResponse(
            key: key,
            primaryKey: key,
            urlKey: key,
            varyHeaders: [],
            status: 200,
            headers: headers,
            body: body,
            storedAt: storedAt,
            displayURL: displayURL
        )
    }

    fileprivate func withBody(count: Int) -> CachedResponse {
        var copy = self
        copy.body = Data(repeating: 1, count: count)
        return copy
    }
}
