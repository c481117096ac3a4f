import APISandbox
import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore
import Testing

@Suite("The Basecamp sandbox's vaults, uploads, attachments and downloads")
struct FilesSandboxTests {
    private static let vault = Int64(BasecampSandboxSeed.letoLaptopVaultID)

    private static func temporaryFile(_ name: String, _ bytes: Data) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("sandbox-files-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    private static func bytes(_ count: Int, seed: Int = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 31) &+ seed) })
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An uploaded file is listed in its vault and downloads byte for byte")
    func uploadListDownload() async throws {
        try await withSandboxAccount { account, _ in
            let bytes = Self.bytes(300_000)
            let file = try Self.temporaryFile("plans.pdf", bytes)
            let upload = try await account.upload(file: file, toVault: Self.vault, description: "<div>Plans</div>")
            #expect(upload.filename == "plans.pdf")
            #expect(upload.contentType == "application/pdf")
            #expect(upload.byteSize == 300_000)
            #expect(upload.description == "<div>Plans</div>")

            let listed = try await account.uploads.list(vaultID: Self.vault)
            #expect(listed.map(\.id).contains(upload.id))
            #expect(try await account.uploads.get(uploadID: upload.id).filename == "plans.pdf")

            let destination = file.deletingLastPathComponent().appendingPathComponent("copy.pdf")
            let downloadURL = try #require(upload.downloadURL)
            let result = try await account.download(downloadURL, to: destination)
            #expect(try Data(contentsOf: destination) == bytes)
            #expect(result.byteCount == 300_000)
            #expect(try await account.download(downloadURL).data == bytes)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The seeded upload downloads, and its storage URL needs its signature but no token")
    func storageNeedsSignatureNotToken() async throws {
        try await withSandboxAccount { account, sandbox in
            let upload = try await account.uploads.get(uploadID: Int64(BasecampSandboxSeed.companyLogoUploadID))
            let file = try await account.download(try #require(upload.downloadURL))
            #expect(file.data.count == BasecampSandboxSeed.companyLogoByteSize)
            #expect(file.contentType == "image/png")
            #expect(file.filename == "company-logo.png")

            let sgid = BasecampSandboxSeed.companyLogoAttachmentSGID
            let signed = try await sandbox.raw("GET", "/_storage/\(sgid)?signature=seeded-company-logo", token: nil)
            #expect(signed.status == 200)
            #expect(signed.body == file.data)
            let unsigned = try await sandbox.raw("GET", "/_storage/\(sgid)?signature=guess", token: nil)
            #expect(unsigned.status == 403)
            let noToken = try await sandbox.raw("GET", "/\(accountID)/uploads/\(upload.id)", token: nil)
            #expect(noToken.status == 401)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Storage serves ranges, and If-Range with a stale tag gets the whole file")
    func ranges() async throws {
        try await withBasecampSandbox { sandbox in
            let sgid = BasecampSandboxSeed.companyLogoAttachmentSGID
            let path = "/_storage/\(sgid)?signature=seeded-company-logo"
            let whole = try await sandbox.raw("GET", path, token: nil)
            let etag = try #require(whole.header("ETag"))
            #expect(whole.header("Accept-Ranges") == "bytes")

            let tail = try await sandbox.raw(
                "GET",
                path,
                token: nil,
                headers: ["Range": "bytes=21000-", "If-Range": etag]
            )
            #expect(tail.status == 206)
            #expect(tail.header("Content-Range") == "bytes 21000-21183/21184")
            #expect(tail.body == whole.body.suffix(184))

            let middle = try await sandbox.raw("GET", path, token: nil, headers: ["Range": "bytes=10-19"])
            #expect(middle.body == whole.body.subdata(in: 10..<20))

            let stale = try await sandbox.raw(
                "GET",
                path,
                token: nil,
                headers: ["Range": "bytes=100-", "If-Range": "\"old\""]
            )
            #expect(stale.status == 200)
            #expect(stale.body.count == BasecampSandboxSeed.companyLogoByteSize)

            let beyond = try await sandbox.raw("GET", path, token: nil, headers: ["Range": "bytes=999999-"])
            #expect(beyond.status == 416)
            #expect(beyond.header("Content-Range") == "bytes */21184")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Replacing an upload keeps its id, serves the new bytes and lists both versions")
    func replace() async throws {
        try await withSandboxAccount { account, _ in
            let first = try await account.upload(
                file: try Self.temporaryFile("notes.txt", Data("v1".utf8)),
                toVault: Self.vault
            )
            let newer = Data("version two".utf8)
            let replaced = try await account.replaceUpload(first.id, with: try Self.temporaryFile("notes.txt", newer))
            #expect(replaced.id == first.id)
            #expect(replaced.byteSize == Int64(newer.count))
            #expect(try await account.download(try #require(replaced.downloadURL)).data == newer)
            let versions = try await account.uploads.listVersions(uploadID: first.id)
            #expect(versions.count == 2)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Folders: a vault created in Docs & Files is listed, fetched and renamed")
    func vaults() async throws {
        try await withSandboxAccount { account, _ in
            let root = try await account.vaults.get(vaultID: Self.vault)
            #expect(root.title == "Docs & Files")
            let project = try await account.projects.get(projectID: Int64(BasecampSandboxSeed.letoLaptopProjectID))
            #expect(project.dock?.first { $0.name == "vault" }?.id == Self.vault)

            let folder = try await account.vaults.create(vaultID: Self.vault, CreateVaultRequest(title: "Invoices"))
            #expect(try await account.vaults.list(vaultID: Self.vault).map(\.id) == [folder.id])
            let renamed = try await account.vaults.update(vaultID: folder.id, UpdateVaultRequest(title: "Receipts"))
            #expect(renamed.title == "Receipts")
            #expect(try await account.vaults.get(vaultID: folder.id).title == "Receipts")
            #expect(try await account.uploads.list(vaultID: folder.id).isEmpty)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An upload naming an unknown attachment is a validation error")
    func unknownAttachment() async throws {
        try await withSandboxAccount { account, _ in
            await #expect(throws: APIError.self) {
                _ = try await account.uploads.create(vaultID: Self.vault, CreateUploadRequest(attachableSgid: "nope"))
            }
        }
    }
}
