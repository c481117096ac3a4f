import APISandbox
import Foundation
import HTTPCore
import Hummingbird

/// A tiny notes API for the example to talk to, mounted on the sandbox under `/notes`.
struct NotesModule: SandboxModule {
    private let notes = Locked<[Int: ExampleNote]>([:])
    private let nextID = Locked(1)

    struct ExampleNote: Codable, Sendable {
        var id: Int?
        var title: String
        var pinned: Bool
    }

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        router.get("notes") { request, _ -> Response in
            let pinned = request.uri.queryParameters.get("pinned").map { $0 == "true" }
            let list = notes.withLock { Array($0.values) }
                .filter { pinned == nil || $0.pinned == pinned }
                .sorted { ($0.id ?? 0) < ($1.id ?? 0) }
            return try Self.json(list, status: .ok)
        }
        router.post("notes") { request, context -> Response in
            var note = try await request.decode(as: ExampleNote.self, context: context)
            let id = nextID.withLock { next -> Int in
                defer { next += 1 }
                return next
            }
            note.id = id
            notes.withLock { $0[id] = note }
            return try Self.json(note, status: .created)
        }
        router.delete("notes/:id") { _, context -> Response in
            guard let id = context.parameters.get("id", as: Int.self),
                notes.withLock({ $0.removeValue(forKey: id) }) != nil
            else { return Response(status: .notFound) }
            return Response(status: .noContent)
        }
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        let data = try JSONEncoder().encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
