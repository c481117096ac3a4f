import Foundation

/// What an endpoint sends: JSON, a form, raw bytes or a multipart form.
///
/// The body is encoded when the call is made, with the client's ``JSONCoding``, and the
/// matching `Content-Type` is set unless the endpoint sets one itself.
public struct RequestBody: Sendable {
    enum Storage: Sendable {
        case encodable(any Encodable & Sendable)
        case json(JSONValue)
        case form(QueryParameters)
        case bytes(Data, contentType: String)
        case multipart(MultipartForm)
    }

    let storage: Storage

    /// JSON from any `Encodable` value, using the client's key and date strategies.
    public static func json<Value: Encodable & Sendable>(_ value: Value) -> RequestBody {
        RequestBody(storage: .encodable(value))
    }

    /// JSON from a literal value, sent exactly as written (no key conversion).
    ///
    /// ```swift
    /// .json(["content": "Ship it", "due_on": "2024-06-01", "assignee_ids": [42]])
    /// ```
    public static func json(_ value: JSONValue) -> RequestBody {
        RequestBody(storage: .json(value))
    }

    /// An `application/x-www-form-urlencoded` body; `nil` values are left out.
    public static func form(_ fields: QueryParameters) -> RequestBody {
        RequestBody(storage: .form(fields))
    }

    /// Raw bytes with the given content type (for example an upload).
    public static func bytes(_ data: Data, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(storage: .bytes(data, contentType: contentType))
    }

    /// A `multipart/form-data` body of fields and files.
    public static func multipart(_ form: MultipartForm) -> RequestBody {
        RequestBody(storage: .multipart(form))
    }

    /// The bytes and content type this body sends.
    ///
    /// - Throws: `EncodingError` when an `Encodable` value cannot be encoded.
    public func encoded(with encoder: JSONEncoder) throws -> (data: Data, contentType: String) {
        switch storage {
        case .encodable(let value):
            return (try encoder.encode(value), "application/json")
        case .json(let value):
            return (value.encoded(), "application/json")
        case .form(let fields):
            return (Data(fields.formEncoded().utf8), "application/x-www-form-urlencoded")
        case .bytes(let data, let contentType):
            return (data, contentType)
        case .multipart(let form):
            return (form.encoded(), "multipart/form-data; boundary=\(form.boundary)")
        }
    }
}

/// A `multipart/form-data` body: text fields and files, in order.
public struct MultipartForm: Sendable {
    /// One part of the form.
    public enum Part: Sendable {
        /// A text field.
        case field(name: String, value: String)
        /// A file with its name and content type.
        case file(name: String, filename: String, contentType: String, data: Data)
    }

    /// The parts, in the order they are sent.
    public var parts: [Part]
    /// The boundary between parts; random unless given.
    public let boundary: String

    /// Creates a form; the default boundary is random so it cannot occur in file data by chance.
    public init(parts: [Part] = [], boundary: String = "httpcore-\(UUID().uuidString)") {
        self.parts = parts
        self.boundary = boundary
    }

    /// Adds a text field.
    public mutating func append(field name: String, value: String) {
        parts.append(.field(name: name, value: value))
    }

    /// Adds a file.
    public mutating func append(
        file name: String,
        filename: String,
        contentType: String = "application/octet-stream",
        data: Data
    ) {
        parts.append(.file(name: name, filename: filename, contentType: contentType, data: data))
    }

    /// The encoded body (RFC 7578).
    public func encoded() -> Data {
        var body = Data()
        for part in parts {
            body.append(Data("--\(boundary)\r\n".utf8))
            switch part {
            case .field(let name, let value):
                body.append(Data("Content-Disposition: form-data; name=\"\(Self.quoted(name))\"\r\n\r\n".utf8))
                body.append(Data(value.utf8))
            case .file(let name, let filename, let contentType, let data):
                let disposition =
                    "Content-Disposition: form-data; name=\"\(Self.quoted(name))\"; filename=\"\(Self.quoted(filename))\""
                body.append(Data("\(disposition)\r\nContent-Type: \(contentType)\r\n\r\n".utf8))
                body.append(data)
            }
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }

    /// Escapes the characters RFC 7578 says must not appear raw in a quoted name.
    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
