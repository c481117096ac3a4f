import Foundation
import HTTPCore

/// Parsing arbitrary bytes never traps; whatever parses re-encodes to JSON that parses again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONValue(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let value = try? JSONValue(parsing: data) else { return 0 }
    let encoded = value.encoded()
    do {
        let again = try JSONValue(parsing: encoded)
        _ = again.objectValue
    } catch {
        preconditionFailure("JSONValue.encoded() produced unparseable JSON: \(error)")
    }
    _ = value.stringValue
    _ = value.intValue
    _ = value.doubleValue
    _ = value["key"]
    _ = value[0]
    return 0
}
