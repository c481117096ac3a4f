import Basecamp
import CLISupport
import Foundation
import HTTPCore

/// `webhooks listen --sandbox`: registers the listener as a webhook of a sandbox project, with
/// the listener's secret (a sandbox extension of `CreateWebhook`), for every recording type, and
/// removes it when the listener stops.
///
/// A listener that did not stop cleanly (killed, or its machine slept) leaves its webhook
/// behind; one restarted at the same address takes that webhook over, with its own secret, and
/// deletes any other left for the address, so each event arrives once and verifies.
struct SandboxWebhookRegistration: Sendable {
    let context: CommandContext
    let account: AccountClient
    let project: Int64

    /// Registers `payloadURL`, signed with `secret`; returns the webhook's id.
    ///
    /// - Throws: The API's error; the sandbox's rate limit (429) is retried by the client.
    func register(payloadURL: URL, secret: String) async throws -> Int64 {
        let url = payloadURL.absoluteString
        var existing: [Int64] = []
        for try await hook in account.webhooks.listPaginated(bucketID: project) where hook.payloadURL == url {
            existing.append(hook.id)
        }
        let body: JSONValue = ["payload_url": .string(url), "types": [], "active": true, "secret": .string(secret)]
        guard let reused = existing.first else {
            let created = try await account.perform(
                OperationCatalog.createWebhook,
                pathParameters: ["bucketId": String(project)],
                body: .json(body)
            )
            guard let id = created.value["id"]?.intValue else {
                throw APIError.apiError(.init(message: "The sandbox created the webhook but did not say its id."))
            }
            context.note("Registered sandbox webhook \(id) on project \(project): every event there is delivered here.")
            return Int64(id)
        }
        _ = try await account.perform(
            OperationCatalog.updateWebhook,
            pathParameters: ["webhookId": String(reused)],
            body: .json(body)
        )
        for stale in existing.dropFirst() { try await unregister(stale) }
        let removed = existing.count > 1 ? " (removed \(existing.count - 1) more left for this address)" : ""
        context.note(
            "Reusing sandbox webhook \(reused) on project \(project)\(removed): every event there is delivered here."
        )
        return reused
    }

    /// Deletes webhook `id`; one already gone counts as deleted.
    func unregister(_ id: Int64) async throws {
        do {
            try await account.webhooks.delete(webhookID: id)
        } catch APIError.notFound {
            return
        }
    }
}
