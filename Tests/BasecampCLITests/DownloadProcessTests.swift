import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

/// `basecamp download` as a real process, walking both hops: the API on one origin answers with
/// a redirect to the storage host on another, which serves the file without credentials.
@Suite("Downloads across origins with the built basecamp executable")
struct DownloadProcessTests {
    static let sgid = BasecampSandboxSeed.companyLogoAttachmentSGID
    static let account = BasecampSandboxModule.defaultAccountID
    /// The API's path of the seeded logo's download_url, below the sandbox's root.
    static let downloadPath = "/basecamp/\(account)/blobs/\(sgid)/download/company-logo.png"

    static func scratchFile(_ name: String) throws -> URL {
        try ScratchFolder("basecamp-hops").file(name)
    }

    @Test("A download_url on another host is asked of the API, then fetched from storage; the signature is never shown")
    func storageHostURL() async throws {
        let target = try Self.scratchFile("logo.png")
        let pasted = "https://storage.3.basecamp.com" + Self.downloadPath
        let folder = SignInFolder()
        defer { folder.remove() }
        let result = try await BuiltExecutable.run(
            "basecamp",
            arguments: ["--sandbox", "--verbose", "download", pasted, "--output", target.path],
            variables: folder.variables
        )
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: target).count == BasecampSandboxSeed.companyLogoByteSize)
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("[http] GET") }
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.first?.contains(Self.downloadPath) == true)
        #expect(lines.first?.contains("-> 302 ") == true)
        #expect(lines.last?.contains("/basecamp/_storage/\(Self.sgid)") == true)
        #expect(lines.last?.contains("-> 200 ") == true)
        #expect(!result.stderr.contains("seeded-company-logo"), "the storage signature stays secret")
        #expect(!result.stderr.contains("storage.3.basecamp.com"), "nothing is sent to the pasted host")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A 503 from the API hop is retried; with --no-retry it is tried once and the storage is never asked")
    func retriesTheAPIHop() async throws {
        let faults = FaultInjection(
            sequence: [.tooManyRequests(retryAfterSeconds: 1)],
            pathPrefixes: [Self.downloadPath]
        )
        try await withBasecampSandbox(faults: faults) { sandbox, baseURL in
            let storagePath = "/basecamp/_storage/\(Self.sgid)"
            let target = try Self.scratchFile("logo.png")
            let folder = SignInFolder()
            defer { folder.remove() }
            let variables = credentials(baseURL).merging(folder.variables) { $1 }
            let arguments = ["download", String(BasecampSandboxSeed.companyLogoUploadID), "--output", target.path]

            let once = try await BuiltExecutable.run(
                "basecamp",
                arguments: ["--no-retry"] + arguments,
                variables: variables
            )
            #expect(once.exitCode == 5, "rate_limit: \(once.stderr)")
            #expect(sandbox.counters().requestsByPath[Self.downloadPath] == 1)
            #expect(sandbox.counters().requestsByPath[storagePath] == nil)

            sandbox.reset()
            let retried = try await BuiltExecutable.run("basecamp", arguments: arguments, variables: variables)
            #expect(retried.exitCode == 0, "\(retried.stderr)")
            #expect(sandbox.counters().requestsByPath[Self.downloadPath] == 2)
            #expect(sandbox.counters().requestsByPath[storagePath] == 1)
            #expect(try Data(contentsOf: target).count == BasecampSandboxSeed.companyLogoByteSize)
        }
    }
}
