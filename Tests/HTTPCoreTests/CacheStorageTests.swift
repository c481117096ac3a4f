import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

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

    func cleanUp() {
        try? FileManager.default.removeItem(at: url)
    }
}

@Suite("Cache storage")
struct CacheStorageTests {
    private let endpoint = Endpoint<Resource>(.get, "resources/1")

    /// A transport answering 304 to conditional requests and a fresh versioned body otherwise.
    private func revalidatingTransport() -> ScriptedTransport {
        ScriptedTransport(clock: nil) { request in
            if request.header("If-None-Match") == "\"v1\"" {
                return TransportResponse(response: HTTPResponse(status: .notModified), url: request.url)
            }
            return TransportResponse(
                response: HTTPResponse(status: .ok, headerFields: [.eTag: "\"v1\""]),
                body: Data(#"{"name":"disk","version":1}"#.utf8),
                url: request.url
            )
        }
    }

    @Test("Disk store: a new client with a new cache on the same directory revalidates the stored entry")
    func diskSurvivesNewClient() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }

        let firstTransport = revalidatingTransport()
        let firstClient = try makeCachingClient(
            firstTransport,
            cache: ResponseCache(storage: DiskCacheStorage(directory: directory.url))
        )
        _ = try await firstClient.send(endpoint)
        #expect(directory.files.count == 1)

        let secondTransport = revalidatingTransport()
        let reopened = ResponseCache(storage: DiskCacheStorage(directory: directory.url))
        #expect(reopened.count == 1)
        let secondClient = try makeCachingClient(secondTransport, cache: reopened)
        let response = try await secondClient.response(endpoint)
        #expect(secondTransport.requests.count == 1)
        #expect(secondTransport.requests[0].header("If-None-Match") == "\"v1\"")
        #expect(response.fromCache)
        #expect(response.value == Resource(name: "disk", version: 1))
    }

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case truncated, garbage, empty, flippedBodyByte, badMetadata
        var testDescription: String { rawValue }

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
            }
        }
    }

    @Test("Disk store: a damaged entry file is a miss, never a crash", arguments: Damage.allCases)
    func diskCorruptedFile(damage: Damage) async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        _ = try await makeCachingClient(
            revalidatingTransport(),
            cache: ResponseCache(storage: DiskCacheStorage(directory: directory.url))
        ).send(endpoint)
        let file = try #require(directory.files.first)
        try damage.apply(to: Data(contentsOf: file)).write(to: file)

        let transport = revalidatingTransport()
        let cache = ResponseCache(storage: DiskCacheStorage(directory: directory.url))
        let response = try await makeCachingClient(transport, cache: cache).response(endpoint)
        #expect(transport.requests[0].header("If-None-Match") == nil)
        #expect(!response.fromCache)
        #expect(response.value.name == "disk")
        // The damaged file was replaced by a good one.
        let again = try await makeCachingClient(
            revalidatingTransport(),
            cache: ResponseCache(storage: DiskCacheStorage(directory: directory.url))
        ).response(endpoint)
        #expect(again.fromCache)
    }

    @Test("Disk store: a damaged file found on first read (index already built) is a miss")
    func diskDamagedAfterIndexing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let transport = revalidatingTransport()
        let cache = ResponseCache(storage: DiskCacheStorage(directory: directory.url))
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
            CachedResponse(
                key: key,
                primaryKey: key,
                urlKey: key,
                varyHeaders: [],
                status: 200,
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
        try storage.store(
            CachedResponse(
                key: key,
                primaryKey: key,
                urlKey: key,
                varyHeaders: [],
                status: 200,
                headers: [:],
                body: Data("x".utf8),
                storedAt: Date(),
                displayURL: ""
            )
        )
        #expect(directory.files.count == 1)
        #expect(storage.entry(forKey: key)?.body == Data("x".utf8))
    }

    @Test("Disk store: the files hold no credential, only digests and the redacted URL")
    func diskHoldsNoSecrets() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let transport = revalidatingTransport()
        let client = try makeCachingClient(
            transport,
            cache: ResponseCache(storage: DiskCacheStorage(directory: directory.url))
        ) {
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

    @Test(
        "SHA-256 matches the FIPS 180-4 vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "The quick brown fox jumps over the lazy dog",
                "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"
            ),
            (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
            // Around the block and padding boundaries: 55 bytes pad within one block, 56–63 need
            // a second, 64 fills one exactly.
            (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (String(repeating: "a", count: 63), "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (String(repeating: "a", count: 65), "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
            (String(repeating: "a", count: 119), "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        ]
    )
    func sha256(input: String, digest: String) {
        #expect(SHA256Hasher.hex(input) == digest)
    }

    @Test("SHA-256 gives the same digest however the message is split across updates")
    func sha256Split() {
        let message = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 7)
        let whole = SHA256Hasher.hex(message)
        for chunk in [1, 7, 63, 64, 65, 200] {
            var hasher = SHA256Hasher()
            var rest = Substring(message)
            while !rest.isEmpty {
                hasher.update(String(rest.prefix(chunk)))
                rest = rest.dropFirst(chunk)
            }
            #expect(SHA256Hasher.hexString(hasher.finalize()) == whole, "chunks of \(chunk)")
        }
    }

    @Test("FNV-1a 64 matches the reference values")
    func fnv() {
        #expect(FNV1a64.hash(Data()) == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a64.hash(Data("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(FNV1a64.hash(Data("foobar".utf8)) == 0x8594_4171_f739_67e8)
    }
}

extension CachedResponse {
    fileprivate func withBody(count: Int) -> CachedResponse {
        var copy = self
        copy.body = Data(repeating: 1, count: count)
        return copy
    }
}
