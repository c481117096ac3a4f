import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird
import NIOCore

/// A small API with the write shapes the SDKs use, and a ledger the soak checks afterwards.
///
/// - `POST /soak/items` creates an item (not idempotent). A body's `ref` is unique per call, so
///   the ledger can tell a doubled write from two calls. An `Idempotency-Key` is honoured: a
///   repeat of a key returns the first result and applies nothing (Basecamp-style creates); a
///   create without a key is applied every time it arrives (Markbook-style student creates).
/// - `PUT /soak/items/{id}/marks/{slot}` sets one value (idempotent, like a result write).
/// - `POST /soak/items/{id}/completion` marks an item done (idempotent, like completing a todo).
/// - `GET /soak/items/{id}` and `GET /soak/items` read (idempotent).
@available(macOS 14, iOS 17, tvOS 17, *)
struct SoakModule: SandboxModule {
    struct Item: Codable, Sendable, Equatable {
        var id: Int
        var ref: String
        var marks: [String: Int] = [:]
        var completed = false
    }

    struct Ledger: Sendable {
        var items: [Int: Item] = [:]
        var nextID = 1
        /// How many times each create `ref` was applied; the soak requires at most one.
        var appliedByRef: [String: Int] = [:]
        /// The item each idempotency key created, for replays.
        var itemByKey: [String: Int] = [:]
        var replays = 0
    }

    let ledger = Locked(Ledger())

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        let group = router.group("soak")
        group.post("items") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            guard let input = try? JSONDecoder().decode([String: String].self, from: Data(body.readableBytesView)),
                let ref = input["ref"]
            else { return Self.json(["error": "body must be {\"ref\": ...}"], status: .badRequest) }
            let key = request.headers[.idempotencyKey]
            let (item, replayed) = ledger.withLock { ledger -> (Item, Bool) in
                if let key, let id = ledger.itemByKey[key], let item = ledger.items[id] {
                    ledger.replays += 1
                    return (item, true)
                }
                let item = Item(id: ledger.nextID, ref: ref)
                ledger.nextID += 1
                ledger.items[item.id] = item
                ledger.appliedByRef[ref, default: 0] += 1
                if let key { ledger.itemByKey[key] = item.id }
                return (item, false)
            }
            var response = Self.json(item, status: .created)
            if replayed, let name = HTTPField.Name("Idempotent-Replayed") { response.headers[name] = "true" }
            return response
        }
        group.put("items/:id/marks/:slot") { request, context -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            guard let id = context.parameters.get("id", as: Int.self), let slot = context.parameters.get("slot"),
                let input = try? JSONDecoder().decode([String: Int].self, from: Data(body.readableBytesView)),
                let value = input["value"]
            else { return Self.json(["error": "bad mark"], status: .badRequest) }
            let item = ledger.withLock { ledger -> Item? in
                ledger.items[id]?.marks[slot] = value
                return ledger.items[id]
            }
            guard let item else { return Self.json(["error": "no such item"], status: .notFound) }
            return Self.json(item, status: .ok)
        }
        group.post("items/:id/completion") { _, context -> Response in
            guard let id = context.parameters.get("id", as: Int.self) else {
                return Self.json(["error": "bad id"], status: .badRequest)
            }
            let found = ledger.withLock { ledger -> Bool in
                guard ledger.items[id] != nil else { return false }
                ledger.items[id]?.completed = true
                return true
            }
            return found ? Response(status: .noContent) : Self.json(["error": "no such item"], status: .notFound)
        }
        group.get("items/:id") { _, context -> Response in
            guard let id = context.parameters.get("id", as: Int.self),
                let item = ledger.withLock({ $0.items[id] })
            else { return Self.json(["error": "no such item"], status: .notFound) }
            return Self.json(item, status: .ok)
        }
        group.get("items") { _, _ -> Response in
            let count = ledger.withLock { $0.items.count }
            return Self.json(["count": count], status: .ok)
        }
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status) -> Response {
        let data = (try? JSONEncoder().encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
