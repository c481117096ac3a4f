import Foundation
import HTTPCore

/// Parsing arbitrary bytes never traps; it gives what `JSONDecoder` gives for the same bytes (the
/// same value, or an error from both); whatever parses is written as `JSONEncoder` writes it, and
/// that JSON parses again.
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
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Parsed JSON holds no infinite or NaN number, so JSONEncoder fails only past its depth.
    let reference = (try? encoder.encode(value)) ?? Data("null".utf8)
    precondition(encoded == reference, "JSONValue.encoded() wrote \(encoded), JSONEncoder \(reference)")
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
