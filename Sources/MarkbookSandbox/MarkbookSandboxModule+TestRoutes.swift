import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird
import NIOCore

@available(macOS 14, iOS 17, tvOS 17, *)
extension MarkbookSandboxModule {
    /// Where the module's test controls are served: `/_test` followed by ``basePath``.
    ///
    /// - `GET {testPath}/counters`: ``counters()`` as JSON, with `resultWritesByCell` keyed
    ///   `"STUDENTKEY:TASKKEY"`.
    /// - `POST {testPath}/options`: replaces the options (``setOptions(_:)``) from a form body
    ///   using the environment variables' names, e.g.
    ///   `MARKBOOK_SANDBOX_FAIL_RESULTS_AFTER=3&MARKBOOK_SANDBOX_BACKUP=ready`; an empty body
    ///   restores the defaults. A value that cannot be read is a 400 naming it.
    ///
    /// They let a test drive a sandbox running in another process (`api-sandbox`): interrupt an
    /// import, clear the fault, run it again, and read how often each cell was written.
    public var testPath: String { "/_test" + basePath }

    func registerTestRoutes(on router: Router<SandboxRequestContext>) {
        router.get(RouterPath(testPath + "/counters")) { _, _ in
            Self.jsonResponse(self.countersJSON(), status: .ok)
        }
        router.post(RouterPath(testPath + "/options")) { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: 64 * 1024)
            let form = MarkbookSandboxRequest.decodeForm(String(decoding: body.readableBytesView, as: UTF8.self))
            let values = Dictionary(form.map { ($0.name, $0.value) }) { _, last in last }
            do {
                self.setOptions(try MarkbookSandboxOptions(environment: values))
                return Response(status: .noContent)
            } catch {
                return Self.jsonResponse(["error": .string("\(error)")], status: .badRequest)
            }
        }
    }

    private func countersJSON() -> JSONValue {
        let counters = counters()
        func numbers(_ values: [String: Int]) -> JSONValue {
            .object(values.mapValues(JSONValue.integer))
        }
        return [
            "logins": .integer(counters.logins),
            "failedLogins": .integer(counters.failedLogins),
            "rejectedSessions": .integer(counters.rejectedSessions),
            "requestsByAction": numbers(counters.requestsByAction),
            "appliedWritesByAction": numbers(counters.appliedWritesByAction),
            "refusalsByAction": numbers(counters.refusalsByAction),
            "resultWritesByCell": numbers(
                Dictionary(uniqueKeysWithValues: counters.resultWritesByCell.map { ($0.key.description, $0.value) })
            ),
            "injectedResultFailures": .integer(counters.injectedResultFailures),
        ]
    }

    private static func jsonResponse(_ value: JSONValue, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: status,
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: value.encoded()))
        )
    }
}
