import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension TestRoutes {
    struct ScriptConfiguration: Decodable {
        var steps: [ScriptStep]
    }

    struct ScriptConfigured: Encodable {
        var name: String
        var steps: Int
    }

    func configureScript(_ request: Request, _ context: Context) async throws -> Response {
        var request = request
        let name = context.parameters.get("name") ?? ""
        let body = try await request.collectBody(upTo: Self.maxBodySize)
        let configuration: ScriptConfiguration
        do {
            configuration = try JSONDecoder().decode(ScriptConfiguration.self, from: Data(body.readableBytesView))
        } catch {
            return JSONResponse.error("expected {\"steps\": [...]}: \(error)")
        }
        state.script(name, configuration.steps)
        return try JSONResponse.make(ScriptConfigured(name: name, steps: configuration.steps.count))
    }

    func script(_ request: Request, _ context: Context) async throws -> Response {
        let name = context.parameters.get("name") ?? ""
        guard let step = state.nextScriptStep(name) else {
            return JSONResponse.error(
                "no script named \(name); POST /_test/script/\(name)/configure",
                status: .notFound
            )
        }
        if let delay = step.delayMs, delay > 0 {
            try await Task.sleep(for: .milliseconds(min(delay, Self.maxDelayMilliseconds)))
        }
        guard let fault = step.fault else {
            return try Self.response(for: step)
        }
        return try await ConnectionBreaker.apply(fault, request: request, context: context) {
            try Self.response(for: step)
        }
    }

    static func response(for step: ScriptStep) throws -> Response {
        guard (200...599).contains(step.status) else {
            return JSONResponse.error(
                "scripted status \(step.status) is not between 200 and 599",
                status: .internalServerError
            )
        }
        let status = HTTPResponse.Status(code: step.status)
        var headers = HTTPFields()
        for (name, value) in step.headers.sorted(by: { $0.key < $1.key }) {
            Self.setHeader(&headers, name, value)
        }
        guard status.mayHaveBody, let body = step.body else {
            var response = Response(status: status, headers: headers)
            if !status.mayHaveBody {
                response.headers[.contentLength] = nil
            }
            return response
        }
        if case .string(let text) = body {
            if headers[.contentType] == nil {
                headers[.contentType] = "text/plain; charset=utf-8"
            }
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        var response = try JSONResponse.make(body, status: status)
        for field in headers {
            response.headers[field.name] = field.value
        }
        return response
    }
}
