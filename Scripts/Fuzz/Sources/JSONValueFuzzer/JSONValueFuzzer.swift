import Foundation
import HTTPCore

/// Parsing arbitrary bytes never traps; it gives what `JSONDecoder` gives for the same bytes (the
/// same value, or an error from both); whatever parses re-encodes to JSON that parses again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONValue(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let parsed = try? JSONValue(parsing: data)
    let decoded = try? JSONDecoder().decode(JSONValue.self, from: data)
    precondition(
        parsed == decoded,
        "JSONValue(parsing:) gave \(String(describing: parsed)), JSONDecoder \(String(describing: decoded))"
    )
    guard let value = parsed else { return 0 }
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
