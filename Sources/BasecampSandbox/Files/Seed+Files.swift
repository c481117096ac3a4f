import Foundation

extension BasecampSandboxSeed {
    /// The Leto Laptop's Docs & Files vault.
    public static let letoLaptopVaultID = FileRecords.rootVaultID(ofProject: letoLaptopProjectID)
    /// *company-logo.png*, an upload in the Leto Laptop's Docs & Files (as in the Spec's example).
    public static let companyLogoUploadID = 1_069_479_913
    /// The attachment behind *company-logo.png*, whose sgid the Spec's examples use.
    public static let companyLogoAttachmentSGID = "BAh7CEkiCGdpZAY6BkVU"
    /// *Release notes*, a document in the Leto Laptop's Docs & Files (as in the Spec's example).
    public static let releaseNotesDocumentID = 1_069_481_024
    /// The size of *company-logo.png*.
    public static let companyLogoByteSize = 21_184
}

extension AccountData {
    /// One upload with its bytes, so downloads work from the first run.
    static func seededFiles() -> FileRecords {
        let created = time(20, 9)
        // Byte `i` is `i % 251`: any slice can be checked, and the pattern does not repeat on
        // power-of-two boundaries.
        let bytes = (0..<BasecampSandboxSeed.companyLogoByteSize).map { UInt8($0 % 251) }
        var files = FileRecords()
        files.attachments = [
            AttachmentRecord(
                sgid: BasecampSandboxSeed.companyLogoAttachmentSGID,
                filename: "company-logo.png",
                contentType: "image/png",
                data: Data(bytes),
                storageKey: "seeded-company-logo",
                createdAt: created
            )
        ]
        files.uploads = [
            UploadRecord(
                id: BasecampSandboxSeed.companyLogoUploadID,
                projectID: BasecampSandboxSeed.letoLaptopProjectID,
                vaultID: BasecampSandboxSeed.letoLaptopVaultID,
                sgid: BasecampSandboxSeed.companyLogoAttachmentSGID,
                filename: "company-logo.png",
                description: "<div>The logo, for the laptop's lid.</div>",
                creatorID: BasecampSandboxSeed.ownerID,
                createdAt: created,
                updatedAt: created
            )
        ]
        files.documents = [
            DocumentRecord(
                id: BasecampSandboxSeed.releaseNotesDocumentID,
                projectID: BasecampSandboxSeed.letoLaptopProjectID,
                vaultID: BasecampSandboxSeed.letoLaptopVaultID,
                title: "Release notes",
                content: "<div>Version 1.0: the flux capacitor ships.</div>",
                creatorID: BasecampSandboxSeed.ownerID,
                createdAt: created,
                updatedAt: created
            )
        ]
        return files
    }
}
