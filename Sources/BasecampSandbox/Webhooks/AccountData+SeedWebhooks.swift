extension AccountData {
    /// One paused webhook, so `webhooks get`, `update` and `delete` have a record to work on;
    /// being inactive, it never sends anything out of the machine.
    mutating func seedWebhooks() {
        webhooks = [
            WebhookRecord(
                id: BasecampSandboxSeed.pausedWebhookID,
                projectID: BasecampSandboxSeed.letoLaptopProjectID,
                payloadURL: "https://example.com/hooks/basecamp",
                types: ["Todo", "Comment"],
                active: false,
                secret: BasecampSandboxModule.defaultWebhookSecret,
                createdAt: Self.time(20, 9),
                updatedAt: Self.time(20, 9)
            )
        ]
    }
}
