import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPURLResponse {
    /// Status and header fields as swift-http-types models them, or nil for a status outside
    /// 0...999.
    ///
    /// swift-http-types' `httpResponse` does the same, but first casts the whole header
    /// dictionary to `[String: String]`, which builds a second dictionary: this reads each
    /// entry once, about 40% faster on Linux (a few microseconds on every response).
    var head: HTTPResponse? {
        guard (0...999).contains(statusCode) else { return nil }
        let fields = allHeaderFields
        var headerFields = HTTPFields()
        headerFields.reserveCapacity(fields.count)
        for (key, value) in fields {
            guard let name = key.base as? String, let text = value as? String, let fieldName = HTTPField.Name(name)
            else { continue }
            headerFields.append(HTTPField(name: fieldName, isoLatin1Text: text))
        }
        return HTTPResponse(status: .init(code: statusCode), headerFields: headerFields)
    }
}
