import APISandbox
import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
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

    /// The API hop of a download as the SDK makes it: credentials, no redirect followed.
    @available(macOS 14, iOS 17, tvOS 17, *)
    private static func apiHop(_ sandbox: Sandbox, _ path: String) async throws -> Response<Data> {
        let api = try Client(
            configuration: ClientConfiguration(
                baseURL: sandbox.basecampURL,
                userAgent: "BasecampSandboxTests (tests@example.com)"
            )
        )
        return try await api.response(
            Endpoint<Data>(
                .get,
                path,
                headers: [.authorization: "Bearer sandbox-token"],
                operation: OperationMetadata(redirects: RedirectPolicy.none)
            )
        )
    }

    /// The signed storage URL of the seeded logo, as the API hands it out now, as a path and
    /// query below the storage origin's base path.
    @available(macOS 14, iOS 17, tvOS 17, *)
    private static func signedLogoPath(_ sandbox: Sandbox) async throws -> String {
        let sgid = BasecampSandboxSeed.companyLogoAttachmentSGID
        let redirect = try await apiHop(sandbox, "\(accountID)/blobs/\(sgid)/download/company-logo.png")
        let location = try #require(redirect.headers[.location].flatMap(URLComponents.init(string:)))
        return String(location.path.dropFirst("/basecamp".count)) + "?" + (location.query ?? "")
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
    @Test("download_urls are on the storage origin; the API redirects them to a signed storage URL")
    func downloadURLsOnStorage() async throws {
        try await withSandboxAccount { account, sandbox in
            let storage = try #require(sandbox.secondOrigin)
            #expect(storage.port != sandbox.baseURL.port)
            let upload = try await account.uploads.get(uploadID: Int64(BasecampSandboxSeed.companyLogoUploadID))
            let downloadURL = try #require(upload.downloadURL.flatMap(URL.init(string:)))
            #expect(downloadURL.port == storage.port)
            #expect(downloadURL.path.hasPrefix("/basecamp/\(accountID)/blobs/"))

            let file = try await account.download(downloadURL.absoluteString)
            #expect(file.data.count == BasecampSandboxSeed.companyLogoByteSize)
            #expect(file.contentType == "image/png")
            #expect(file.filename == "company-logo.png")
            #expect(file.redirected)
            let counts = sandbox.counters().requestsByPath
            #expect(counts[downloadURL.path] == 1, "the API hop, on the API's origin")
            #expect(counts["/basecamp/_storage/\(BasecampSandboxSeed.companyLogoAttachmentSGID)"] == 1)

            let redirect = try await Self.apiHop(sandbox, String(downloadURL.path.dropFirst("/basecamp/".count)))
            #expect(redirect.status == .found)
            let location = try #require(redirect.headers[.location].flatMap(URL.init(string:)))
            #expect(location.port == storage.port)
            #expect(location.query?.contains("signature=") == true)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Storage serves a signed URL without credentials, and refuses guesses, tokens and unsigned URLs")
    func storageNeedsSignatureNotToken() async throws {
        try await withBasecampSandbox { sandbox in
            let storage = try #require(sandbox.secondOrigin)
            let sgid = BasecampSandboxSeed.companyLogoAttachmentSGID
            let path = try await Self.signedLogoPath(sandbox)
            #expect(path.hasPrefix("/_storage/\(sgid)?expires="))
            let signed = try await sandbox.raw("GET", path, token: nil, on: storage)
            #expect(signed.status == 200)
            #expect(signed.body.count == BasecampSandboxSeed.companyLogoByteSize)
            let guessed = try await sandbox.raw("GET", "/_storage/\(sgid)?signature=guess", token: nil, on: storage)
            #expect(guessed.status == 403)
            let withToken = try await sandbox.raw("GET", path, on: storage)
            #expect(withToken.status == 400, "a signed URL takes no credentials")
            let downloadPath = "/\(accountID)/blobs/\(sgid)/download/company-logo.png"
            #expect(try await sandbox.raw("GET", downloadPath, on: storage).status == 400)
            let unsigned = try await sandbox.raw("GET", downloadPath, token: nil, on: storage)
            #expect(unsigned.status == 403, "storage does not serve the download_url itself")
            let onAPI = try await sandbox.raw("GET", path, token: nil)
            #expect(onAPI.status == 404, "the API does not play storage")
            let noToken = try await sandbox.raw("GET", downloadPath, token: nil)
            #expect(noToken.status == 401)
            #expect(String(decoding: noToken.body, as: UTF8.self) == "OAuth token required")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A signed storage URL works for five minutes; after that, or with its expiry changed, it is refused")
    func signedURLsExpire() async throws {
        let clock = TestClock(mode: .manual)
        var module = BasecampSandboxModule()
        module.timeSource = clock
        try await withBasecampSandbox(module: module) { sandbox in
            let storage = try #require(sandbox.secondOrigin)
            let path = try await Self.signedLogoPath(sandbox)
            clock.advance(by: .seconds(299))
            #expect(try await sandbox.raw("GET", path, token: nil, on: storage).status == 200)
            let expires = try #require(URLComponents(string: path)?.queryItems?.first { $0.name == "expires" }?.value)
            let later = path.replacingOccurrences(
                of: "expires=\(expires)",
                with: "expires=\((Int(expires) ?? 0) + 3600)"
            )
            #expect(try await sandbox.raw("GET", later, token: nil, on: storage).status == 403, "the expiry is signed")

            clock.advance(by: .seconds(2))
            let expired = try await sandbox.raw("GET", path, token: nil, on: storage)
            #expect(expired.status == 403)
            #expect(String(decoding: expired.body, as: UTF8.self).contains("expired"))
            let fresh = try await Self.signedLogoPath(sandbox)
            #expect(try await sandbox.raw("GET", fresh, token: nil, on: storage).status == 200)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Storage serves ranges, and If-Range with a stale tag gets the whole file")
    func ranges() async throws {
        try await withBasecampSandbox { sandbox in
            let storage = try #require(sandbox.secondOrigin)
            let path = try await Self.signedLogoPath(sandbox)
            let whole = try await sandbox.raw("GET", path, token: nil, on: storage)
            let etag = try #require(whole.header("ETag"))
            #expect(whole.header("Accept-Ranges") == "bytes")

            let tail = try await sandbox.raw(
                "GET",
                path,
                token: nil,
                headers: ["Range": "bytes=21000-", "If-Range": etag],
                on: storage
            )
            #expect(tail.status == 206)
            #expect(tail.header("Content-Range") == "bytes 21000-21183/21184")
            #expect(tail.body == whole.body.suffix(184))

            let middle = try await sandbox.raw("GET", path, token: nil, headers: ["Range": "bytes=10-19"], on: storage)
            #expect(middle.body == whole.body.subdata(in: 10..<20))

            let stale = try await sandbox.raw(
                "GET",
                path,
                token: nil,
                headers: ["Range": "bytes=100-", "If-Range": "\"old\""],
                on: storage
            )
            #expect(stale.status == 200)
            #expect(stale.body.count == BasecampSandboxSeed.companyLogoByteSize)

            let beyond = try await sandbox.raw(
                "GET",
                path,
                token: nil,
                headers: ["Range": "bytes=999999-"],
                on: storage
            )
            #expect(beyond.status == 416)
            #expect(beyond.header("Content-Range") == "bytes */21184")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A file whose name has a slash, a question mark or a hash still downloads from its download_url")
    func awkwardNames() async throws {
        try await withSandboxAccount { account, _ in
            let bytes = Data("quarterly figures".utf8)
            let file = try Self.temporaryFile("figures.csv", bytes)
            for name in ["Q1/Q2 plan.csv", "why?.csv", "#3 100%.csv"] {
                let attachment = try await account.attachments.create(fileAt: file, name: name)
                let upload = try await account.uploads.create(
                    vaultID: Self.vault,
                    CreateUploadRequest(attachableSgid: try #require(attachment.attachableSgid))
                )
                #expect(upload.filename == name)
                #expect(try await account.download(try #require(upload.downloadURL)).data == bytes, "\(name)")
            }
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
