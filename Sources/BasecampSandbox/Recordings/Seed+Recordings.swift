import HTTPCore

extension BasecampSandboxSeed {
    /// The Leto Laptop's card table.
    public static let letoLaptopCardTableID = ProjectTool.cardTable.id(ofProject: letoLaptopProjectID)
    /// *In progress*, a column of the Leto Laptop's card table.
    public static let inProgressColumnID = 1_069_490_001
    /// *Order the laptop case*, a card in *In progress*.
    public static let laptopCaseCardID = 1_069_490_010
    /// *Measure the lid*, a step of *Order the laptop case*.
    public static let measureLidStepID = 1_069_490_020
    /// The Leto Laptop's schedule.
    public static let letoLaptopScheduleID = ProjectTool.schedule.id(ofProject: letoLaptopProjectID)
    /// *Design review*, an entry on the Leto Laptop's schedule.
    public static let designReviewEntryID = 1_069_490_030
    /// The Leto Laptop's Campfire.
    public static let letoLaptopCampfireID = ProjectTool.campfire.id(ofProject: letoLaptopProjectID)
    /// *Morning, everyone!*, a line in the Leto Laptop's Campfire.
    public static let morningLineID = 1_069_490_040
    /// The Leto Laptop's automatic check-ins.
    public static let letoLaptopQuestionnaireID = ProjectTool.questionnaire.id(ofProject: letoLaptopProjectID)
    /// *What did you work on today?*, a check-in question.
    public static let workedOnQuestionID = 1_069_490_050
    /// The owner's answer to *What did you work on today?*.
    public static let workedOnAnswerID = 1_069_490_060
    /// *Announcement*, a message type of the Leto Laptop.
    public static let announcementTypeID = 1_069_490_070
    /// A boost on the *Kickoff* message.
    public static let kickoffBoostID = 1_069_490_080
}

extension AccountData {
    /// One record of each kept kind in the Leto Laptop, so every operation on them has something
    /// to read from the first run.
    static func seededRecordings() -> KeptRecords {
        let seed = BasecampSandboxSeed.self
        let project = seed.letoLaptopProjectID
        func record(
            _ id: Int,
            _ kind: RecordingKind,
            in parentID: Int,
            day: Int,
            _ fields: [String: JSONValue]
        ) -> StoredRecording {
            StoredRecording(
                id: id,
                kind: kind,
                projectID: project,
                parentID: parentID,
                fields: fields,
                creatorID: seed.ownerID,
                createdAt: time(day, 10),
                updatedAt: time(day, 10)
            )
        }
        var kept = KeptRecords()
        kept.recordings = [
            record(
                seed.inProgressColumnID,
                .cardColumn,
                in: seed.letoLaptopCardTableID,
                day: 21,
                ["title": "In progress"]
            ),
            record(
                seed.laptopCaseCardID,
                .card,
                in: seed.inProgressColumnID,
                day: 21,
                ["title": "Order the laptop case", "content": "<div>Aluminium, matte.</div>", "due_on": "2026-02-20"]
            ),
            record(seed.measureLidStepID, .cardStep, in: seed.laptopCaseCardID, day: 21, ["title": "Measure the lid"]),
            record(
                seed.designReviewEntryID,
                .scheduleEntry,
                in: seed.letoLaptopScheduleID,
                day: 22,
                [
                    "summary": "Design review", "description": "<div>Bring the prototype.</div>",
                    "starts_at": "2026-02-10T14:00:00.000Z", "ends_at": "2026-02-10T15:00:00.000Z", "all_day": false,
                ]
            ),
            record(
                seed.morningLineID,
                .campfireLine,
                in: seed.letoLaptopCampfireID,
                day: 22,
                ["content": "Morning, everyone!"]
            ),
            record(
                seed.workedOnQuestionID,
                .question,
                in: seed.letoLaptopQuestionnaireID,
                day: 22,
                [
                    "title": "What did you work on today?",
                    "schedule": ["frequency": "every_day", "days": [1, 2, 3, 4, 5], "hour": 16, "minute": 30],
                ]
            ),
            record(
                seed.workedOnAnswerID,
                .answer,
                in: seed.workedOnQuestionID,
                day: 23,
                ["content": "<div>The hinge drawings.</div>", "group_on": "2026-01-23"]
            ),
            record(seed.announcementTypeID, .messageType, in: project, day: 20, ["name": "Announcement", "icon": "📢"]),
            record(seed.kickoffBoostID, .boost, in: seed.kickoffMessageID, day: 23, ["content": "🎉"]),
        ]
        return kept
    }
}
