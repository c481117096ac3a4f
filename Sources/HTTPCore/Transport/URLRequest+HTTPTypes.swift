import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// Takes the method and header fields of `request`. Repeated fields are joined as HTTP/1.1
    /// does: with `, `, or `; ` for cookies. The URL is not touched: the redirect policy has
    /// already built it.
    mutating func setFields(of request: HTTPRequest) {
        // URLRequest starts as a GET, and setting the method costs a copy of its storage.
        if request.method != .get {
            httpMethod = request.method.rawValue
        }
        var joined: [String: String] = Dictionary(minimumCapacity: request.headerFields.count)
        for field in request.headerFields {
            // One hash per field; a repeated name, which is rare, pays a second.
            let text = field.isoLatin1Text
            if let earlier = joined.updateValue(text, forKey: field.name.rawName) {
                joined[field.name.rawName] = earlier + field.name.combiningSeparator + text
            }
        }
        allHTTPHeaderFields = joined
    }
}

extension HTTPField {
    /// The value as URLSession takes it: each byte one ISO Latin-1 character, as
    /// swift-http-types' own conversion does, so non-ASCII values go out byte for byte.
    var isoLatin1Text: String {
        withUnsafeBytesOfValue { bytes in
            guard bytes.contains(where: { $0 >= 0x80 }) else { return value }
            var text = ""
            text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
            return text
        }
    }

    /// A field whose value URLSession gave as ISO Latin-1 text: each character one byte, and a
    /// character beyond Latin-1 (which no byte could have produced) a space, as swift-http-types'
    /// own conversion does.
    init(name: Name, isoLatin1Text text: String) {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            self.init(name: name, value: text)
        } else {
            self.init(name: name, value: text.unicodeScalars.map { $0.value > 0xFF ? 0x20 : UInt8($0.value) })
        }
    }
}
