import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import MarkbookSandbox
import Testing

@Suite("Backups: typed readiness, sandbox modes and a real zip")
struct BackupTests {
    @Test("readyURL: the URL when ready; pending and no backup are distinct typed errors; other statuses are api_error")
    func readyURL() throws {
        let url = try #require(URL(string: "https://example.com/backups/b.zip"))
        #expect(try BackupURL(status: .okay, url: url).readyURL() == url)
        for (status, reason) in [
            (BackupStatus.errorPending, BackupUnavailable.Reason.pending), (.errorNoBackup, .noBackup),
        ] {
            do {
                _ = try BackupURL(status: status, url: nil).readyURL()
                Issue.record("\(status) gave a URL")
            } catch let error as BackupUnavailable {
                #expect(error.reason == reason)
                #expect(error.rawStatus == status.rawStatus)
                #expect(error.code == reason.rawValue)
                #expect(!error.message.isEmpty && !error.hint.isEmpty)
            }
        }
        #expect(BackupUnavailable.Reason.allCases.map(\.rawValue) == ["backup_pending", "no_backup"])
        for backup in [BackupURL(status: .error("busy"), url: nil), BackupURL(status: .okay, url: nil)] {
            let error = #expect(throws: APIError.self) { try backup.readyURL() }
            #expect(error?.code == .apiError)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Sandbox modes: pending and none override the schedule; ready serves a zip at once")
    func modes() async throws {
        try await SandboxHarness.withClient { harness, client in
            harness.module.setOptions(.init(backup: .pending))
            try await client.scheduleBackup(matching: "10MAT")
            harness.clock.advance(by: .seconds(2 * 86_400))
            let pending = await unavailable { _ = try await client.readyBackupURL() }
            #expect(pending?.reason == .pending)
            harness.module.setOptions(.init(backup: .none))
            #expect(await unavailable { _ = try await client.readyBackupURL() }?.reason == .noBackup)
            harness.module.setOptions(.init(backup: .ready))
            let url = try await client.readyBackupURL()
            #expect(url.lastPathComponent.hasPrefix("markbook-backup-") && url.pathExtension == "zip")
            let zip = try await download(url, harness)
            let entries = try ZipReader.entries(zip)
            #expect(entries.map(\.name).first == "manifest.json")
            #expect(entries.count == 1 + 2 * 3, "every markbook as JSON and CSV")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The backup zip: valid stored entries with correct CRC-32, the markbooks matched, their data as JSON and CSV")
    func zipContents() async throws {
        try await SandboxHarness.withClient { harness, client in
            try await client.putStudentResult(
                markbookKey: 1_000_001,
                studentKey: 5004,
                sid: "100277",
                taskKey: 4003,
                taskName: "Statistics investigation",
                result: "21"
            )
            try await client.scheduleBackup(matching: "mat")
            harness.clock.advance(by: .seconds(86_400))
            let zip = try await download(try await client.readyBackupURL(), harness)
            let entries = try ZipReader.entries(zip)
            #expect(
                entries.map(\.name) == [
                    "manifest.json", "markbooks/1000001-10MAT1-Mathematics.json",
                    "markbooks/1000001-10MAT1-Mathematics.csv",
                ]
            )
            let manifest = try JSONValue(parsing: entries[0].bytes)
            #expect(manifest["matching"]?.stringValue == "mat")
            #expect(manifest["markbooks"]?.arrayValue?.count == 1)

            // The file holds getmarkbook's keys without the envelope: add a status to decode it.
            let stored = try MarkbookSheet.decode(
                from: Data(#"{"status":"OKAY","#.utf8) + entries[1].bytes.dropFirst()
            )
            let sheet = try await client.getMarkbook(key: 1_000_001)
            #expect(stored == sheet, "the JSON is the markbook as getmarkbook answers it")

            let csv = try MarkbookGrid(table: DelimitedText.csv.read(entries[2].bytes))
            let live = MarkbookGrid(sheet: sheet)
            #expect(csv.taskColumns.map(\.header) == live.taskColumns.map(\.header))
            #expect(csv.rows.map(\.cells) == live.rows.map(\.cells))
            #expect(csv.rows.map(\.sid) == live.rows.map(\.sid))

            if let directory = ProcessInfo.processInfo.environment["MARKBOOK_BACKUP_ZIP_OUT"] {
                try zip.write(to: URL(fileURLWithPath: directory).appending(path: "sandbox-backup.zip"))
            }
        }
    }

    @Test("Options from the environment: every variable, and a clear error naming a bad one")
    func environment() throws {
        let options = try MarkbookSandboxOptions(environment: [
            "MARKBOOK_SANDBOX_BACKUP": "Ready",
            "MARKBOOK_SANDBOX_FAIL_RESULTS_AFTER": "3",
            "MARKBOOK_SANDBOX_FAIL_RESULT_CELLS": "5001:4001, 5002:4003",
            "MARKBOOK_SANDBOX_FAIL_RESULTS_WITH": "lost:502",
            "UNRELATED": "x",
        ])
        #expect(options.backup == .ready)
        #expect(options.resultWriteFaults.failAfterWrites == 3)
        #expect(
            options.resultWriteFaults.cells == [
                .init(studentKey: 5001, taskKey: 4001), .init(studentKey: 5002, taskKey: 4003),
            ]
        )
        #expect(options.resultWriteFaults.failure == .lostAnswer(httpStatus: 502))
        #expect(try MarkbookSandboxOptions(environment: [:]) == MarkbookSandboxOptions())
        #expect(
            try MarkbookSandboxOptions(environment: ["MARKBOOK_SANDBOX_FAIL_RESULTS_WITH": "error:busy"])
                .resultWriteFaults.failure == .status("busy")
        )
        #expect(
            try MarkbookSandboxOptions(environment: ["MARKBOOK_SANDBOX_FAIL_RESULTS_WITH": "http:503"])
                .resultWriteFaults.failure == .httpStatus(503)
        )
        for (name, value) in [
            ("MARKBOOK_SANDBOX_BACKUP", "soon"), ("MARKBOOK_SANDBOX_FAIL_RESULTS_AFTER", "-1"),
            ("MARKBOOK_SANDBOX_FAIL_RESULT_CELLS", "5001"), ("MARKBOOK_SANDBOX_FAIL_RESULTS_WITH", "http:200"),
            ("MARKBOOK_SANDBOX_FAIL_RESULTS_WITH", ":"), ("MARKBOOK_SANDBOX_FAIL_RESULTS_WITH", ":502"),
            ("MARKBOOK_SANDBOX_FAIL_RESULTS_WITH", "http:"), ("MARKBOOK_SANDBOX_FAIL_RESULT_CELLS", ":,:"),
        ] {
            do {
                _ = try MarkbookSandboxOptions(environment: [name: value])
                Issue.record("\(name)=\(value) was accepted")
            } catch let error as SandboxSettingError {
                #expect(error.variable == name)
                #expect(error.description.contains(name) && error.description.contains(value))
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    private func download(_ url: URL, _ harness: SandboxHarness) async throws -> Data {
        try await Client(configuration: ClientConfiguration(baseURL: harness.sandbox.baseURL))
            .send(Endpoint<Data>(.get, url.absoluteString))
    }

    private func unavailable(_ body: () async throws -> Void) async -> BackupUnavailable? {
        do {
            try await body()
            Issue.record("no error")
        } catch let error as BackupUnavailable {
            return error
        } catch {
            Issue.record("\(error)")
        }
        return nil
    }
}

/// Reads a zip the way an unzip tool does — from the end record through the central directory to
/// each local header — and checks every entry's sizes and CRC-32, independently of the sandbox's
/// writer.
enum ZipReader {
    struct Entry {
        var name: String
        var bytes: Data
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static func entries(_ zip: Data) throws -> [Entry] {
        let bytes = [UInt8](zip)
        func u16(_ at: Int) throws -> Int {
            guard at + 2 <= bytes.count else { throw Malformed(description: "read past the end at \(at)") }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8
        }
        func u32(_ at: Int) throws -> Int {
            let low = try u16(at)
            let high = try u16(at + 2)
            return low | high << 16
        }
        let end = bytes.count - 22
        guard end >= 0, try u32(end) == 0x0605_4B50 else { throw Malformed(description: "no end record") }
        let count = try u16(end + 10)
        var cursor = try u32(end + 16)
        guard try u32(end + 12) == end - cursor else { throw Malformed(description: "central directory size") }
        var entries: [Entry] = []
        for _ in 0..<count {
            guard try u32(cursor) == 0x0201_4B50 else { throw Malformed(description: "central header at \(cursor)") }
            let method = try u16(cursor + 10)
            let crc = try u32(cursor + 16)
            let size = try u32(cursor + 24)
            let nameLength = try u16(cursor + 28)
            let extraLength = try u16(cursor + 30)
            let commentLength = try u16(cursor + 32)
            let offset = try u32(cursor + 42)
            let name = String(decoding: bytes[(cursor + 46)..<(cursor + 46 + nameLength)], as: UTF8.self)
            guard method == 0, try u32(cursor + 20) == size else {
                throw Malformed(description: "\(name) is not stored")
            }
            guard try u32(offset) == 0x0403_4B50, try u32(offset + 14) == crc, try u16(offset + 26) == nameLength else {
                throw Malformed(description: "local header of \(name)")
            }
            let localExtraLength = try u16(offset + 28)
            let start = offset + 30 + nameLength + localExtraLength
            let data = Data(bytes[start..<(start + size)])
            guard bitwiseCRC32(data) == crc else { throw Malformed(description: "CRC-32 of \(name)") }
            entries.append(Entry(name: name, bytes: data))
            cursor += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// CRC-32 one bit at a time, so the check does not share the writer's table.
    static func bitwiseCRC32(_ data: Data) -> Int {
        var crc: UInt32 = ~0
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return Int(~crc)
    }
}
