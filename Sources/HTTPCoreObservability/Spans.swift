import Foundation
import HTTPCore
import HTTPTypes
import Tracing

/// What the tracing stages write on spans, so call spans, attempt spans and events agree.
enum Spans {
    typealias Attribute = TracingMiddleware.Attribute

    /// A call span's name: the operation's, else the HTTP method's.
    static func name(_ operation: OperationMetadata, _ method: HTTPRequest.Method) -> String {
        operation.name.isEmpty ? Labels.method(method) : operation.name
    }

    /// The method, redacted URL and server of `request`.
    static func describe(_ request: HTTPRequest, redactor: Redactor, into attributes: inout SpanAttributes) {
        let method = request.method
        attributes[Attribute.method] = Labels.method(method)
        if !Labels.isKnown(method) { attributes[Attribute.methodOriginal] = method.rawValue }
        let url = request.urlText.map(redactor.redact(urlString:)) ?? ""
        attributes[Attribute.url] = url
        if let server = Labels.server(of: url) {
            attributes[Attribute.serverAddress] = server.address
            if let port = server.port { attributes[Attribute.serverPort] = port }
        }
    }

    /// Records an answer's status; OpenTelemetry marks a client span failed for 4xx and 5xx,
    /// naming the status as the type.
    static func record(status: Int, on span: any Span) {
        span.attributes[Attribute.statusCode] = status
        if status >= 400 {
            span.attributes[Attribute.errorType] = String(status)
            span.setStatus(SpanStatus(code: .error))
        }
    }

    /// Marks `span` failed with `error`.
    static func fail(_ span: any Span, with error: APIError) {
        fail(span, with: error, type: error.code.rawValue)
    }

    /// Marks `span` failed with `error`, named by `type`.
    static func fail(_ span: any Span, with error: any Error, type: String) {
        span.attributes[Attribute.errorType] = type
        span.recordError(error)
        span.setStatus(SpanStatus(code: .error))
    }
}
