import Foundation

/// The items key for ``ItemsEnvelope``, set around one synchronous decode.
enum ItemsEnvelopeKey {
    @TaskLocal static var current: String?
}

/// A page object whose items sit under a key chosen at run time.
struct ItemsEnvelope<Item: Decodable>: Decodable {
    var items: [Item]

    init(from decoder: any Decoder) throws {
        let key = ItemsEnvelopeKey.current ?? "items"
        let container = try decoder.container(keyedBy: DynamicKey.self)
        // With a snake_case key strategy the decoder reports converted names, so accept both.
        let converted = Self.camelCased(key)
        guard
            let codingKey = container.allKeys.first(where: { $0.stringValue == key })
                ?? container.allKeys.first(where: { $0.stringValue == converted })
        else {
            throw DecodingError.keyNotFound(
                DynamicKey(stringValue: key),
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "The page has no \"\(key)\" property holding its items."
                )
            )
        }
        items = try container.decode([Item].self, forKey: codingKey)
    }

    private static func camelCased(_ key: String) -> String {
        let parts = key.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = parts.first else { return key }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            return nil
        }
    }
}
