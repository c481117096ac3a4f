import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@Suite("Auth: credential stores")
struct AuthCredentialStoreTests {
    /// Runs `body` with a store that saved ``sample`` to `credentials.json` in a fresh directory,
    /// and the file.
    private func withSavedSample(_ body: (FileCredentialStore, URL) async throws -> Void) async throws {
        try await withTemporaryFolder { directory in
            let url = directory.appending(path: "credentials.json")
            let store = FileCredentialStore(url: url)
            try await store.save(sample)
            try await body(store, url)
        }
    }

    private func permissions(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
    }

    private let sample = TokenCredentials(
        accessToken: "a-1",
        refreshToken: "r-1",
        expiresAt: Date(timeIntervalSince1970: 1_700_003_600)
    )

    @Test("Round trip: what is saved loads back equal, in a 0600 file in a 0700 directory")
    func roundTrip() async throws {
        try await withTemporaryFolder { directory in
            let url = directory.appending(path: "nested/credentials.json")
            let store = FileCredentialStore(url: url)
            try await store.save(sample)
            #expect(await store.load() == sample)
            #expect(try permissions(url) == 0o600)
            #expect(try permissions(url.deletingLastPathComponent()) == 0o700)
            // A second store on the same file sees the same credentials, as a new launch would.
            #expect(await FileCredentialStore(url: url).load() == sample)
        }
    }

    @Test("Overwriting keeps 0600 and leaves no temporary files behind")
    func overwrite() async throws {
        try await withSavedSample { store, url in
            // Even a file someone loosened is replaced by a private one.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
            var updated = sample
            updated.accessToken = "a-2"
            try await store.save(updated)
            #expect(await store.load()?.accessToken == "a-2")
            #expect(try permissions(url) == 0o600)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == [
                    "credentials.json"
                ]
            )
        }
    }

    @Test("The file format is the documented JSON")
    func format() async throws {
        try await withSavedSample { _, url in
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text == #"{"access_token":"a-1","expires_at":1700003600,"refresh_token":"r-1"}"#)
        }
    }

    @Test(
        "A missing, empty, corrupt or wrongly shaped file means no credentials",
        arguments: [nil, "", "{not json", "[]", #"{"refresh_token":"r"}"#, #"{"access_token":42}"#]
    )
    func unreadable(content: String?) async throws {
        try await withTemporaryFolder { directory in
            let url = directory.appending(path: "credentials.json")
            if let content { try Data(content.utf8).write(to: url) }
            #expect(await FileCredentialStore(url: url).load() == nil)
        }
    }

    @Test("A corrupt file makes RefreshingTokenAuth ask for sign-in, without sending anything")
    func corruptFileStrategy() async throws {
        try await withTemporaryFolder { directory in
            let url = directory.appending(path: "credentials.json")
            try Data("\u{0}garbage".utf8).write(to: url)
            let auth = RefreshingTokenAuth(
                refresh: RefreshEndpoint(path: "token"),
                store: FileCredentialStore(url: url)
            )
            let transport = ScriptedTransport([.json([:])])
            let client = try makeClient(transport) { $0.auth = auth }
            let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
            #expect(error?.code == .authRequired)
            #expect(transport.requests.isEmpty)
            // Signing in replaces the corrupt file.
            try await auth.setCredentials(sample)
            #expect(await FileCredentialStore(url: url).load() == sample)
        }
    }

    @Test("remove() deletes the file; removing a missing file is fine")
    func remove() async throws {
        try await withSavedSample { store, url in
            try await store.remove()
            #expect(!FileManager.default.fileExists(atPath: url.path))
            try await store.remove()
            #expect(await store.load() == nil)
        }
    }

    @Test("A save that cannot be written throws usage naming the file, never its content")
    func unwritable() async throws {
        try await withTemporaryFolder { directory in
            let blocker = directory.appending(path: "file")
            try Data().write(to: blocker)
            let store = FileCredentialStore(url: blocker.appending(path: "credentials.json"))
            let error = await caughtAPIError { try await store.save(sample) }
            #expect(error?.code == .usage)
            #expect(error.map { "\($0)".contains("a-1") } == false)
        }
    }

    @Test("InMemoryCredentialStore keeps, replaces and forgets")
    func inMemory() async throws {
        let store = InMemoryCredentialStore()
        #expect(await store.load() == nil)
        await store.save(sample)
        #expect(await store.load() == sample)
        await store.remove()
        #expect(await store.load() == nil)
    }
}
