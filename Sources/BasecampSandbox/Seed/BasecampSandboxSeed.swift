/// Ids of the account the sandbox starts with, for tests, examples and documentation.
///
/// The account is Honcho Design (`195539477`, as in the Spec's examples) with seven people and
/// four projects. The Leto Laptop's *Hardware* list holds 120 open to-dos, so at Basecamp's 50 per
/// page it spans three pages.
public enum BasecampSandboxSeed {
    /// The only account the sandbox serves; any other account id answers `404`.
    public static let accountID = 195_539_477
    /// Victor Cooper, the account owner and the person the sandbox's tokens belong to.
    public static let ownerID = 1_049_715_913
    /// Victor Cooper's email address, which the sandbox's `authorization.json` names.
    public static let ownerEmail = "victor@honchodesign.com"

    /// *The Leto Laptop*: two to-do lists and two messages.
    public static let letoLaptopProjectID = 2_085_958_504
    /// The Leto Laptop's to-do set.
    public static let letoLaptopTodosetID = 1_069_479_300
    /// The Leto Laptop's message board.
    public static let letoLaptopMessageBoardID = 1_069_479_340
    /// *Hardware*: 120 open to-dos, three pages at 50 per page.
    public static let hardwareTodolistID = 1_069_479_338
    /// *Launch checklist*: nine to-dos, three of them completed.
    public static let launchChecklistTodolistID = 1_069_479_341
    /// *Program the flux capacitor*, the first to-do on the Hardware list.
    public static let fluxCapacitorTodoID = 1_069_479_395
    /// *Kickoff*, a message with three comments.
    public static let kickoffMessageID = 1_069_479_988

    /// *Marketing Website Relaunch*.
    public static let websiteProjectID = 2_085_958_505
    /// *Hiring: Backend Engineer*.
    public static let hiringProjectID = 2_085_958_506
    /// *Office Move*, archived.
    public static let officeMoveProjectID = 2_085_958_507

    /// A paused webhook of The Leto Laptop (inactive, so it delivers nothing until turned on).
    public static let pausedWebhookID = 1_069_479_351

    /// The Leto Laptop's Docs & Files vault.
    public static let letoLaptopVaultID = letoLaptopProjectID + 2_000_000_000
    /// *company-logo.png*, an upload in the Leto Laptop's Docs & Files (as in the Spec's example).
    public static let companyLogoUploadID = 1_069_479_913
    /// The attachment behind *company-logo.png*, whose sgid the Spec's examples use.
    public static let companyLogoAttachmentSGID = "BAh7CEkiCGdpZAY6BkVU"
    /// *Release notes*, a document in the Leto Laptop's Docs & Files (as in the Spec's example).
    public static let releaseNotesDocumentID = 1_069_481_024
    /// The size of *company-logo.png*.
    public static let companyLogoByteSize = 21_184

    /// The Leto Laptop's card table.
    public static let letoLaptopCardTableID = letoLaptopProjectID + 30_000_000_000
    /// *In progress*, a column of the Leto Laptop's card table.
    public static let inProgressColumnID = 1_069_490_001
    /// *Order the laptop case*, a card in *In progress*.
    public static let laptopCaseCardID = 1_069_490_010
    /// *Measure the lid*, a step of *Order the laptop case*.
    public static let measureLidStepID = 1_069_490_020
    /// The Leto Laptop's schedule.
    public static let letoLaptopScheduleID = letoLaptopProjectID + 40_000_000_000
    /// *Design review*, an entry on the Leto Laptop's schedule.
    public static let designReviewEntryID = 1_069_490_030
    /// The Leto Laptop's Campfire.
    public static let letoLaptopCampfireID = letoLaptopProjectID + 50_000_000_000
    /// *Morning, everyone!*, a line in the Leto Laptop's Campfire.
    public static let morningLineID = 1_069_490_040
    /// The Leto Laptop's automatic check-ins.
    public static let letoLaptopQuestionnaireID = letoLaptopProjectID + 60_000_000_000
    /// *What did you work on today?*, a check-in question.
    public static let workedOnQuestionID = 1_069_490_050
    /// The owner's answer to *What did you work on today?*.
    public static let workedOnAnswerID = 1_069_490_060
    /// *Announcement*, a message type of the Leto Laptop.
    public static let announcementTypeID = 1_069_490_070
    /// A boost on the *Kickoff* message.
    public static let kickoffBoostID = 1_069_490_080
}
