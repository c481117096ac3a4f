import Foundation
import HTTPCore

/// Webhooks CRUD: created per project, listed, read, updated and deleted through the API.
extension Handlers {
    func listWebhooks() throws -> APIReply {
        try listed(in: "bucketId", "Project", AccountData.project, Renderer.webhook) { data, projectID in
            data.hooks.filter { $0.projectID == projectID }
        }
    }

    func getWebhook() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("webhookId")
        guard let hook = data.webhook(id) else { throw APIFailure.notFound("Webhook \(id)") }
        return .json(renderer(data).webhook(hook), status: 200)
    }

    /// `payload_url` must be an http(s) URL (https in production; the sandbox also delivers to
    /// loopback http). `types` lists recording types; empty means all. `secret` is the sandbox's
    /// own addition, so a test or `webhooks listen --sandbox` knows what deliveries are signed with.
    func createWebhook() throws -> APIReply {
        let projectID = try id("bucketId")
        let body = try request.jsonObject()
        let url = try payloadURL(body)
        let types = try webhookTypes(body) ?? []
        let active = body["active"]?.boolValue ?? true
        let secret = body["secret"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let now = Self.now()
        return try created(AccountData.webhook, Renderer.webhook) { data in
            guard data.project(projectID) != nil else { throw APIFailure.notFound("Project \(projectID)") }
            let id = data.makeID()
            data.hooks.append(
                WebhookRecord(
                    id: id,
                    projectID: projectID,
                    payloadURL: url,
                    types: types,
                    active: active,
                    secret: secret ?? BasecampSandboxModule.defaultWebhookSecret,
                    createdAt: now,
                    updatedAt: now
                )
            )
            return id
        }
    }

    func updateWebhook() throws -> APIReply {
        let id = try id("webhookId")
        let body = try request.jsonObject()
        var url: String?
        if body["payload_url"] != nil { url = try payloadURL(body) }
        let types = try webhookTypes(body)
        return try updated(\.hooks, id, noun: "Webhook", Renderer.webhook) { hook, _ in
            if let url { hook.payloadURL = url }
            if let types { hook.types = types }
            if let active = body["active"]?.boolValue { hook.active = active }
        }
    }

    func deleteWebhook() throws -> APIReply {
        let id = try id("webhookId")
        try store.update { data in
            guard data.webhook(id) != nil else { throw APIFailure.notFound("Webhook \(id)") }
            data.hooks.removeAll { $0.id == id }
        }
        return .empty(status: request.operation.successStatus)
    }

    private func payloadURL(_ body: [String: JSONValue]) throws -> String {
        let text = try requiredText(body, "payload_url")
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", url.host != nil
        else { throw APIFailure.invalid("payload_url", "must be an https URL") }
        return text
    }

    private func webhookTypes(_ body: [String: JSONValue]) throws -> [String]? {
        guard let value = body["types"], value != .null else { return nil }
        guard let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
            throw APIFailure.invalid("types", "must be a list of recording types such as Todo")
        }
        return items.compactMap(\.stringValue)
    }
}
