import Foundation
import HTTPCore
import HTTPTypes

private let base = URL(string: "https://api.example.com/v1/items?page=2") ?? URL(fileURLWithPath: "/")

/// Each input line is one `Link` field value; the parser must return (never trap) and respect its
/// documented cap on the number of links.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLinkHeader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let values = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let links = LinkHeader.parse(values, base: base)
    precondition(links.count <= LinkHeader.maxLinks, "LinkHeader.parse exceeded maxLinks")
    for link in links {
        _ = link.has("next")
        _ = link.target.absoluteString
    }
    _ = LinkHeader.next(values, base: base)
    var fields = HTTPFields()
    for value in values.prefix(64) {
        fields.append(HTTPField(name: .init("Link") ?? .contentType, value: value))
    }
    _ = LinkHeader.parse(in: fields, base: base)
    return 0
}
