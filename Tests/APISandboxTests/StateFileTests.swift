import APISandbox
import Foundation
import Testing

/// `SandboxStateFile`: reading, the locked update several writers share, and the files it refuses.
@Suite("Sandbox state files")
struct StateFileTests {
    struct Saved: Codable, Equatable {
        var version = 1
        var lastKey = 0
        var keys: [Int] = []
    }

    /// A state file path in a new directory; the caller removes the directory.
    static func file() throws -> SandboxStateFile {
        let directory = FileManager.default.temporaryDirectory.appending(path: "state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return SandboxStateFile(directory.appending(path: "state.json"))
    }

    static func remove(_ file: SandboxStateFile) {
        try? FileManager.default.removeItem(at: file.url.deletingLastPathComponent())
    }

    @Test("An empty file, as mktemp makes it, is a new state; the first change writes it (mode 0600)")
    func emptyFileIsNew() throws {
        let file = try Self.file()
        defer { Self.remove(file) }
        for contents in ["", "\n", "  \r\n"] {
            try Data(contents.utf8).write(to: file.url)
            #expect(try file.load(Saved.self, version: 1) == nil)
        }
        try Data().write(to: file.url)
        let key = try file.update(Saved.self, version: 1, initial: Saved()) { saved in
            saved.lastKey += 1
            return saved.lastKey
        }
        #expect(key == 1)
        #expect(try file.load(Saved.self, version: 1)?.lastKey == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("Writers on separate threads each re-read under the lock: every change kept, every key unique")
    func concurrentWritersKeepEveryChange() async throws {
        let file = try Self.file()
        defer { Self.remove(file) }
        let writers = 8
        let perWriter = 5
        try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<writers {
                group.addTask {
                    // A separate value per writer, as separate processes would have; each update
                    // opens the lock file anew, so writers exclude each other as processes do.
                    let own = SandboxStateFile(file.url)
                    var keys: [Int] = []
                    for _ in 0..<perWriter {
                        keys.append(
                            try own.update(Saved.self, version: 1, initial: Saved()) { saved in
                                saved.lastKey += 1
                                saved.keys.append(saved.lastKey)
                                return saved.lastKey
                            }
                        )
                    }
                    return keys
                }
            }
            var handedOut: [Int] = []
            for try await keys in group { handedOut += keys }
            #expect(handedOut.sorted() == Array(1...(writers * perWriter)))
        }
        let saved = try #require(try file.load(Saved.self, version: 1))
        #expect(saved.keys.sorted() == Array(1...(writers * perWriter)))
        #expect(FileManager.default.fileExists(atPath: file.lockURL.path))
    }

    @Test("A process's snapshot sees another's change even when both fall in the same tick of the file's clock")
    func snapshotSeesChangeInTheSameTick() throws {
        let file = try Self.file()
        defer { Self.remove(file) }
        let first = try SavedState(file: SandboxStateFile(file.url), version: 1, initial: Saved())
        let second = try SavedState(file: SandboxStateFile(file.url), version: 1, initial: Saved())
        // Both saves stamped alike, as a coarse clock stamps two saves in one tick.
        let tick: [FileAttributeKey: Any] = [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)]
        try first.update { $0.lastKey = 1 }
        try FileManager.default.setAttributes(tick, ofItemAtPath: file.url.path)
        #expect(second.snapshot().lastKey == 1)
        try first.update { $0.lastKey = 2 }
        try FileManager.default.setAttributes(tick, ofItemAtPath: file.url.path)
        #expect(second.snapshot().lastKey == 2)
        // And a process's own update is no reason to miss what another wrote just after it.
        try second.update { $0.lastKey += 10 }
        try first.update { $0.lastKey += 100 }
        #expect(second.snapshot().lastKey == 112)
    }

    @Test("A change that throws or changes nothing writes nothing")
    func noChangeNoWrite() throws {
        let file = try Self.file()
        defer { Self.remove(file) }
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try file.update(Saved.self, version: 1, initial: Saved()) { saved in
                saved.lastKey = 9
                throw Refused()
            }
        }
        try file.update(Saved.self, version: 1, initial: Saved()) { _ in }
        #expect(!FileManager.default.fileExists(atPath: file.url.path), "an unchanged initial value is not written")
    }

    @Test("A damaged file is refused by an update too, and left as it was")
    func damagedFileKept() throws {
        let file = try Self.file()
        defer { Self.remove(file) }
        try Data(#"{"version": 1, "lastKey": "x"}"#.utf8).write(to: file.url)
        let error = #expect(throws: SandboxStateFileError.self) {
            try file.update(Saved.self, version: 1, initial: Saved()) { $0.lastKey += 1 }
        }
        #expect(error?.problem == .notValid)
        #expect(error?.description == "The sandbox state file \(file.url.path) is damaged: lastKey has the wrong type.")
        #expect(try Data(contentsOf: file.url) == Data(#"{"version": 1, "lastKey": "x"}"#.utf8))
    }

    @Test("A lock held longer than the wait allows is a busy error naming the file; nothing is written")
    func busy() async throws {
        let file = try Self.file()
        defer { Self.remove(file) }
        let held = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            try? file.update(Saved.self, version: 1, initial: Saved()) { saved in
                held.continuation.yield()
                release.wait()
                saved.lastKey = 1
            }
        }
        holder.start()
        var iterator = held.stream.makeAsyncIterator()
        await iterator.next()
        var waiter = file
        waiter.lockTimeout = .milliseconds(50)
        let error = #expect(throws: SandboxStateFileError.self) {
            try waiter.update(Saved.self, version: 1, initial: Saved()) { $0.lastKey = 2 }
        }
        #expect(error?.problem == .busy)
        #expect(
            error?.description.hasPrefix("The sandbox state file \(file.url.path) is busy: another process") == true
        )
        release.signal()
        // Released: the next change waits for the holder's and sees it.
        #expect(try file.update(Saved.self, version: 1, initial: Saved()) { $0.lastKey } == 1)
    }
}
