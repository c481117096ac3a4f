import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension TestRoutes {
    func bytes(_ request: Request, _ context: Context) throws -> Response {
        guard let count = context.parameters.get("n", as: Int.self), (0...Self.maxGeneratedBytes).contains(count) else {
            return JSONResponse.error("byte count must be between 0 and \(Self.maxGeneratedBytes)")
        }
        let query = QueryItems(request.uri.query)
        var headers: HTTPFields = [.contentType: "application/octet-stream"]
        guard query.first("chunked") == "1" || query.first("chunked") == "true" else {
            // A fixed body supports ranges, validated by an ETag that names its length.
            let etag = "\"bytes-\(count)\""
            headers[.eTag] = etag
            headers[.acceptRanges] = "bytes"
            if let start = Self.rangeStart(request.headers[.range]), (0..<count).contains(start),
                request.headers[.ifRange].map({ $0 == etag }) ?? true
            {
                headers[.contentRange] = "bytes \(start)-\(count - 1)/\(count)"
                let body = ResponseBody(byteBuffer: Self.pattern(start..<count))
                return Response(status: .partialContent, headers: headers, body: body)
            }
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: Self.pattern(0..<count)))
        }
        let chunkSize = min(max(query.int("chunk_size") ?? 1024, 1), 1024 * 1024)
        let chunkDelay = min(max(query.int("chunk_delay_ms") ?? 0, 0), Self.maxDelayMilliseconds)
        let hold = query.first("hold")
        let state = self.state
        // No content length: Hummingbird then leaves framing to NIO, which uses chunked encoding.
        let body = ResponseBody { writer in
            var offset = 0
            while offset < count {
                let end = min(offset + chunkSize, count)
                try await writer.write(Self.pattern(offset..<end))
                if let hold, offset == 0, end < count {
                    try await state.waitForRelease(of: hold)
                }
                offset = end
                if chunkDelay > 0, offset < count {
                    try await Task.sleep(for: .milliseconds(chunkDelay))
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The first byte of a `Range: bytes=N-` request; other range forms are served whole.
    static func rangeStart(_ value: String?) -> Int? {
        guard let value, value.hasPrefix("bytes="), value.hasSuffix("-") else { return nil }
        return Int(value.dropFirst("bytes=".count).dropLast())
    }

    /// Byte `i` of every generated body is `i % 256`, so a client can verify any slice it receives.
    static func pattern(_ range: Range<Int>) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(range.count)
        // Whole 256-byte blocks are copied rather than written byte by byte, so that bodies of
        // many megabytes stay quick to build in a debug build.
        var index = range.lowerBound
        let head = min((256 - index % 256) % 256, range.count)
        for offset in 0..<head { buffer.writeInteger(UInt8(truncatingIfNeeded: index + offset)) }
        index += head
        while range.upperBound - index >= 256 {
            buffer.writeBytes(patternBlock)
            index += 256
        }
        while index < range.upperBound {
            buffer.writeInteger(UInt8(truncatingIfNeeded: index))
            index += 1
        }
        return buffer
    }

    static let patternBlock: [UInt8] = (0..<256).map { UInt8($0) }
}
