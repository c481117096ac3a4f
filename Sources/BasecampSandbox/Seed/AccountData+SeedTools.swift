import Foundation
import HTTPCore

extension AccountData {
    /// One record of each later kind in the Leto Laptop (a file, a document, a card with a step,
    /// a schedule entry, a Campfire line, a check-in with an answer, a message type, a boost and a
    /// paused webhook), so every operation on them has something to read from the first run.
    mutating func seedLetoLaptopTools() {
        let seed = BasecampSandboxSeed.self
        // Byte `i` is `i % 251`: any slice can be checked, and the pattern does not repeat on
        // power-of-two boundaries.
        attachments.append(
            AttachmentRecord(
                sgid: seed.companyLogoAttachmentSGID,
                filename: "company-logo.png",
                contentType: "image/png",
                data: Data((0..<seed.companyLogoByteSize).map { UInt8($0 % 251) }),
                storageKey: "seeded-company-logo",
                createdAt: Self.time(20, 9)
            )
        )
        let (vault, table, logo) = (seed.letoLaptopVaultID, seed.letoLaptopCardTableID, seed.companyLogoAttachmentSGID)
        let lid = "<div>The logo, for the laptop's lid.</div>"
        let notes = "<div>Version 1.0: the flux capacitor ships.</div>"
        let review: [String: JSONValue] = [
            "summary": "Design review", "description": "<div>Bring the prototype.</div>",
            "starts_at": "2026-02-10T14:00:00.000Z", "ends_at": "2026-02-10T15:00:00.000Z", "all_day": false,
        ]
        let checkIn = ["frequency": "every_day", "days": [1, 2, 3, 4, 5], "hour": 16, "minute": 30] as JSONValue
        let hook: [String: JSONValue] = [
            "payload_url": "https://example.com/hooks/basecamp", "types": ["Todo", "Comment"], "active": false,
            "secret": .string(BasecampSandboxModule.defaultWebhookSecret),
        ]
        let card: [String: JSONValue] = [
            "title": "Order the laptop case", "content": "<div>Aluminium, matte.</div>", "due_on": "2026-02-20",
        ]
        // (id, kind, what holds it, day, hour, fields)
        let rows: [(Int, RecordKind, Int, Int, Int, [String: JSONValue])] = [
            (
                seed.companyLogoUploadID, .upload, vault, 20, 9,
                ["filename": "company-logo.png", "description": .string(lid), "attachable_sgid": .string(logo)]
            ),
            (
                seed.releaseNotesDocumentID, .document, vault, 20, 9,
                ["title": "Release notes", "content": .string(notes)]
            ),
            (seed.inProgressColumnID, .cardColumn, table, 21, 10, ["title": "In progress"]),
            (seed.laptopCaseCardID, .card, seed.inProgressColumnID, 21, 10, card),
            (seed.measureLidStepID, .cardStep, seed.laptopCaseCardID, 21, 10, ["title": "Measure the lid"]),
            (seed.designReviewEntryID, .scheduleEntry, seed.letoLaptopScheduleID, 22, 10, review),
            (seed.morningLineID, .campfireLine, seed.letoLaptopCampfireID, 22, 10, ["content": "Morning, everyone!"]),
            (
                seed.workedOnQuestionID, .question, seed.letoLaptopQuestionnaireID, 22, 10,
                ["title": "What did you work on today?", "schedule": checkIn]
            ),
            (
                seed.workedOnAnswerID, .answer, seed.workedOnQuestionID, 23, 10,
                ["content": "<div>The hinge drawings.</div>", "group_on": "2026-01-23"]
            ),
            (
                seed.announcementTypeID, .messageType, seed.letoLaptopProjectID, 20, 10,
                ["name": "Announcement", "icon": "📢"]
            ),
            (seed.kickoffBoostID, .boost, seed.kickoffMessageID, 23, 10, ["content": "🎉"]),
            (seed.pausedWebhookID, .webhook, seed.letoLaptopProjectID, 20, 9, hook),
        ]
        for (id, kind, parentID, day, hour, fields) in rows {
            add(kind, fields, in: parentID, id: id, at: Self.time(day, hour))
        }
    }
}
