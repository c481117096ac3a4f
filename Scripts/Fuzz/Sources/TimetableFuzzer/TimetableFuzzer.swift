import Foundation
import HTTPCore
import MonashSchedule

private let zone = TimeZone(identifier: "Australia/Melbourne") ?? TimeZone(secondsFromGMT: 36_000) ?? .current

/// Any body either decodes or throws a typed `APIError`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimetable(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    do {
        _ = try Timetable.decode(from: data, timeZone: zone)
    } catch let error as APIError {
        _ = String(describing: error)
    } catch {
        preconditionFailure("Timetable.decode threw an untyped error: \(error)")
    }
    return 0
}
