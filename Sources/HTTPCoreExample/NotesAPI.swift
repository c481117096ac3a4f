import Foundation
import HTTPCore

/// A note as the API returns it.
struct Note: Codable, Sendable {
    var id: Int?
    var title: String
    var pinned: Bool
}

/// The whole API: one factory per operation.
enum NotesAPI {
    static func list(pinned: Bool? = nil) -> Endpoint<[Note]> {
        Endpoint(.get, "notes", query: ["pinned": pinned], operation: .init(name: "ListNotes", service: "notes"))
    }

    static func create(_ note: Note) -> Endpoint<Note> {
        Endpoint(.post, "notes", body: .json(note), operation: .init(name: "CreateNote", service: "notes"))
    }

    static func delete(id: Int) -> Endpoint<NoContent> {
        Endpoint(.delete, "notes/\(id)", operation: .init(name: "DeleteNote", service: "notes"))
    }
}
