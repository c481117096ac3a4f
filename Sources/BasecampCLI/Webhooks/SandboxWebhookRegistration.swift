import Basecamp
import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore

/// `webhooks listen --sandbox`: registers the listener as a webhook of a sandbox project, with
/// the listener's secret (a sandbox extension of `CreateWebhook`), for every recording type.
struct SandboxWebhookRegistration: Sendable {
    let context: CommandContext
    let account: AccountClient
    let project: Int64?

    func register(payloadURL: URL, secret: String) async throws {
        let project = project ?? Int64(BasecampSandboxSeed.letoLaptopProjectID)
        let body: JSONValue = [
            "payload_url": .string(payloadURL.absoluteString),
            "types": [],
            "secret": .string(secret),
        ]
        let created = try await account.perform(
            OperationCatalog.createWebhook,
            pathParameters: ["bucketId": String(project)],
            body: .json(body)
        )
        let id = created.value["id"]?.intValue.map(String.init) ?? "?"
        context.note("Registered sandbox webhook \(id) on project \(project): every event there is delivered here.")
    }
}
