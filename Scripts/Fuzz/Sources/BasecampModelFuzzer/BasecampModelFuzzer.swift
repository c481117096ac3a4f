import Basecamp
import Foundation

/// Generated models decode arbitrary bodies without trapping (timestamps, whole-number and
/// numeric-string quirks included) and re-encode whatever they accept.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBasecampModels(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let decoder = JSONDecoder()
    let encoder = JSONEncoder()
    if let todo = try? decoder.decode(Todo.self, from: data) {
        _ = try? decoder.decode(Todo.self, from: encoder.encode(todo))
    }
    if let project = try? decoder.decode(Project.self, from: data) {
        _ = try? decoder.decode(Project.self, from: encoder.encode(project))
    }
    _ = try? decoder.decode([Todo].self, from: data)
    return 0
}
