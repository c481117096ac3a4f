import Foundation
import HTTPCore

/// Documents in a vault, stateful: a replace changes what it names and keeps the rest.
extension Handlers {
    func listDocuments() throws -> APIReply {
        try listed(in: "vaultId", "Vault", AccountData.vault, Renderer.document) { data, vaultID in
            (data.files?.documents ?? []).filter { $0.vaultID == vaultID && $0.status == "active" }
        }
    }

    func createDocument() throws -> APIReply {
        let vaultID = try id("vaultId")
        let body = try request.jsonObject()
        let title = try requiredText(body, "title")
        return try created(AccountData.document, Renderer.document) { data in
            guard let vault = data.vault(vaultID) else { throw APIFailure.notFound("Vault \(vaultID)") }
            let now = Self.now()
            let id = data.makeID()
            var documents = data.fileRecords.documents ?? []
            documents.append(
                DocumentRecord(
                    id: id,
                    projectID: vault.projectID,
                    vaultID: vaultID,
                    title: title,
                    content: body["content"]?.stringValue ?? "",
                    status: body["status"]?.stringValue == "drafted" ? "drafted" : "active",
                    creatorID: data.meID,
                    createdAt: now,
                    updatedAt: now
                )
            )
            data.fileRecords.documents = documents
            return id
        }
    }

    func replaceDocument() throws -> APIReply {
        let documentID = try id("documentId")
        let body = try request.jsonObject()
        let title = body["title"] == nil ? nil : try requiredText(body, "title")
        let content = body["content"]?.stringValue
        let now = Self.now()
        let data = try store.update { data -> AccountData in
            guard var documents = data.files?.documents,
                let index = documents.firstIndex(where: { $0.id == documentID })
            else { throw APIFailure.notFound("Document \(documentID)") }
            if let title { documents[index].title = title }
            if let content { documents[index].content = content }
            documents[index].updatedAt = now
            data.fileRecords.documents = documents
            return data
        }
        guard let document = data.document(documentID) else { throw APIFailure.notFound("Document \(documentID)") }
        return .json(renderer(data).document(document), status: 200)
    }
}
