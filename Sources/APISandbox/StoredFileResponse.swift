public import Foundation
public import HTTPTypes
public import Hummingbird
import NIOCore

/// A stored file as a download host serves it: whole, or the byte range a `Range` request names
/// (when its `If-Range`, if any, is the file's tag), or `416` when the range is outside it. A file
/// on disk is read a chunk at a time as the connection takes it.
public enum StoredFileResponse {
    /// Where the bytes are.
    public enum Bytes: Sendable {
        /// In memory.
        case data(Data)
        /// In a file of this many bytes.
        case file(URL, byteCount: Int)
    }

    /// How much of a file is read per write.
    static let chunkSize = 256 * 1024

    /// The answer to `request` for `bytes`, tagged `etag`, with `headers` (content type,
    /// disposition…) added.
    public static func make(_ bytes: Bytes, etag: String, headers: HTTPFields, request: Request) -> Response {
        var fields = headers
        fields[.eTag] = etag
        fields[.acceptRanges] = "bytes"
        let count: Int
        switch bytes {
        case .data(let data): count = data.count
        case .file(_, let byteCount): count = byteCount
        }
        guard let range = request.headers[.range], request.headers[.ifRange].map({ $0 == etag }) ?? true else {
            return Response(status: .ok, headers: fields, body: body(bytes, 0..<count))
        }
        guard let bounds = byteRange(range, count: count) else {
            fields[.contentRange] = "bytes */\(count)"
            return Response(status: .rangeNotSatisfiable, headers: fields)
        }
        fields[.contentRange] = "bytes \(bounds.lowerBound)-\(bounds.upperBound - 1)/\(count)"
        return Response(status: .partialContent, headers: fields, body: body(bytes, bounds))
    }

    /// The bytes `bytes=first-last` (or `first-`, or `-suffix`) names in a body of `count`; nil
    /// when they are outside it.
    public static func byteRange(_ value: String, count: Int) -> Range<Int>? {
        guard value.hasPrefix("bytes="), !value.contains(",") else { return nil }
        let spec = value.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        if spec[0].isEmpty {
            guard let suffix = Int(spec[1]), suffix > 0, count > 0 else { return nil }
            return max(0, count - suffix)..<count
        }
        guard let first = Int(spec[0]), first < count else { return nil }
        let last = spec[1].isEmpty ? count - 1 : min(Int(spec[1]) ?? -1, count - 1)
        guard last >= first else { return nil }
        return first..<(last + 1)
    }

    private static func body(_ bytes: Bytes, _ range: Range<Int>) -> ResponseBody {
        switch bytes {
        case .data(let data):
            let start = data.startIndex
            return ResponseBody(
                byteBuffer: ByteBuffer(bytes: data[start + range.lowerBound..<start + range.upperBound])
            )
        case .file(let url, _):
            return ResponseBody(contentLength: range.count) { writer in
                let handle = try FileHandle(forReadingFrom: url)
                defer { try? handle.close() }
                try handle.seek(toOffset: UInt64(range.lowerBound))
                var left = range.count
                while left > 0, let chunk = try handle.read(upToCount: min(chunkSize, left)), !chunk.isEmpty {
                    left -= chunk.count
                    try await writer.write(ByteBuffer(bytes: chunk))
                }
                try await writer.finish(nil)
            }
        }
    }
}
