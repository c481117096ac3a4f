import Foundation
import HTTPTypes

/// The cache stage: inside retry and auth (so each attempt carries its credentials and is keyed
/// by them), outside the user's middlewares and the request hooks.
struct CacheStage: Middleware {
    let cache: ResponseCache
    let hooks: (any Hooks)?
    let timeSource: any TimeSource

    /// Request headers that make a request conditional or partial on the caller's behalf; such
    /// requests bypass the cache, since the caller wants the server's own answer.
    private static let callerConditionals: Set<HTTPField.Name> = [
        .ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince, .ifRange, .range,
    ]

    /// Response headers that describe the stored body and must not be replaced by a 304's.
    private static let representationHeaders: Set<HTTPField.Name> = [
        .contentLength, .contentEncoding, .transferEncoding, .contentRange, .contentType,
    ]

    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        switch request.method {
        case .get, .head:
            break
        case .options, .trace, .connect:
            return try await next(request, body, context)
        default:
            let result = try await next(request, body, context)
            if (200..<300).contains(result.response.status.code), let url = request.url {
                await invalidate(after: request, url: url, result: result, context: context)
            }
            return result
        }
        // A body streamed to a file is not the cache's to keep.
        guard let url = request.urlText, context.transfer == nil else { return try await next(request, body, context) }
        if request.headerFields.contains(where: { Self.callerConditionals.contains($0.name) })
            || CacheControl(request.headerFields[values: .cacheControl]).noStore
        {
            return try await next(request, body, context)
        }

        let key = ResponseCache.requestKey(for: request, url: url, redactor: context.redactor)
        let lookup = await cache.lookup(key, headers: request.headerFields)
        for dropped in lookup.dropped {
            evicted(dropped, .unreadable, request, context)
        }
        if let failure = lookup.failure { unavailable(failure, url: url, request, context) }
        // An entry from a storage that returned an impossible status (a damaged row) is a miss.
        guard let entry = lookup.entry, (100...599).contains(entry.status) else {
            emit(.miss, url: displayURL(url, context), request, context)
            let result = try await next(request, body, context)
            await storeIfAllowed(result, request: request, key: key, context: context)
            return result
        }

        emit(.hit, url: displayURL(url, context), bytes: entry.byteCount, request, context)
        let validators = (tag: entry.headers.firstValue(.eTag), date: entry.headers.firstValue(.lastModified))
        var conditional = request
        conditional.headerFields[.ifNoneMatch] = validators.tag
        conditional.headerFields[.ifModifiedSince] = validators.date
        var revalidation = context
        revalidation.isCacheRevalidation = true
        let result = try await next(conditional, body, revalidation)
        guard result.response.status.code == 304 else {
            await storeIfAllowed(result, request: request, key: key, context: context)
            return result
        }
        guard Self.vouches(forTag: validators.tag, date: validators.date, result.response.headerFields) else {
            // A 304 naming another representation says nothing of the kept body (RFC 9111 §4.3.4),
            // so the body must come from the server after all.
            let fresh = try await next(request, body, context)
            await storeIfAllowed(fresh, request: request, key: key, context: context)
            return fresh
        }
        return await revalidated(entry, by: result, request: request, url: url, context: context)
    }

    /// Whether a 304's validators select the entry whose `storedTag` and `storedDate` the
    /// conditional request sent: an entity tag that matches the stored one by weak comparison, or,
    /// without one, a `Last-Modified` equal to the stored one (a different date names another
    /// representation, even when the entry also has a tag). A 304 with no validator the entry can
    /// be checked against answers the conditions sent, which named the entry.
    private static func vouches(forTag storedTag: String?, date storedDate: String?, _ notModified: HTTPFields) -> Bool
    {
        if let tag = notModified.firstValue(.eTag) {
            return storedTag.map { opaqueTag($0) == opaqueTag(tag) } ?? false
        }
        guard let stamp = notModified.firstValue(.lastModified), let storedDate else { return true }
        return stamp == storedDate
    }

    /// An entity tag without its weakness mark, for weak comparison (RFC 9110 §8.8.3.2).
    private static func opaqueTag(_ tag: String) -> Substring {
        let trimmed = tag.drop { $0 == " " }
        return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
    }

    /// The URL as hooks and stored entries show it; only worked out when something shows it.
    private func displayURL(_ url: String, _ context: RequestContext) -> String {
        context.redactor.redact(urlString: url)
    }

    /// The stored response, its headers updated by the 304 (RFC 9111 §4.3.4).
    private func revalidated(
        _ entry: CachedResponse,
        by result: TransportResponse,
        request: HTTPRequest,
        url: String,
        context: RequestContext
    ) async -> TransportResponse {
        var headers = entry.headers
        var validatorsChanged = false
        let fresh = result.response.headerFields
        var seen: Set<HTTPField.Name> = []
        for field in fresh where !Self.representationHeaders.contains(field.name) && seen.insert(field.name).inserted {
            let values = fresh[values: field.name]
            guard headers[values: field.name] != values else { continue }
            if field.name == .eTag || field.name == .lastModified { validatorsChanged = true }
            headers[values: field.name] = values
        }
        let served = TransportResponse(
            response: HTTPResponse(status: HTTPResponse.Status(code: entry.status), headerFields: headers),
            body: entry.body,
            url: result.url,
            fromCache: true
        )
        emit(.revalidated, url: displayURL(url, context), bytes: entry.byteCount, request, context)
        if CacheControl(result.response.headerFields[values: .cacheControl]).noStore {
            report(await cache.remove(key: entry.key), .notCacheable, url: url, request, context)
        } else if validatorsChanged {
            var updated = entry
            updated.headers = Self.storable(headers, redactor: context.redactor)
            report(await cache.refresh(updated), url: url, request, context)
        }
        return served
    }

    private func storeIfAllowed(
        _ result: TransportResponse,
        request: HTTPRequest,
        key: ResponseCache.RequestKey,
        context: RequestContext
    ) async {
        let status = result.response.status.code
        guard (200..<300).contains(status) else { return }
        let fields = result.response.headerFields
        let varyHeaders = Self.varyHeaders(fields[values: .vary])
        let fullKey = varyHeaders.map {
            ResponseCache.fullKey(primary: key.primary, varyHeaders: $0, request: request.headerFields)
        }
        let storable =
            [200, 203, 204].contains(status)
            && (fields.contains(.eTag) || fields.contains(.lastModified))
            && !CacheControl(fields[values: .cacheControl]).noStore
        guard storable, let varyHeaders, let fullKey else {
            // The resource changed in a way that may not be kept: the old entry is stale now.
            let removal = await cache.removeMatching(key, headers: request.headerFields)
            report(removal, .notCacheable, url: key.url, request, context)
            return
        }
        let entry = CachedResponse(
            key: fullKey,
            primaryKey: key.primary,
            urlKey: key.urlKey,
            varyHeaders: varyHeaders,
            status: status,
            headers: Self.storable(fields, redactor: context.redactor),
            body: result.body,
            storedAt: timeSource.now(),
            displayURL: displayURL(key.url, context)
        )
        let outcome = await cache.store(entry)
        report(outcome, url: key.url, request, context)
        if outcome.stored { emit(.stored, url: entry.displayURL, bytes: entry.byteCount, request, context) }
    }

    /// Drops entries for the written URL and for the URLs the response says it changed
    /// (`Location`, `Content-Location`) when they are on the same origin (RFC 9111 §4.4).
    private func invalidate(
        after request: HTTPRequest,
        url: URL,
        result: TransportResponse,
        context: RequestContext
    ) async {
        var targets = [url]
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let value = result.response.headerFields[name], let target = URL(string: value, relativeTo: url)
            else { continue }
            let absolute = target.absoluteURL
            if absolute.scheme?.lowercased() == url.scheme?.lowercased(),
                absolute.host?.lowercased() == url.host?.lowercased(), absolute.port == url.port
            {
                targets.append(absolute)
            }
        }
        for target in targets {
            let removal = await cache.invalidate(urlKey: ResponseCache.urlKey(target))
            report(removal, .invalidated, url: target.absoluteString, request, context)
        }
    }

    /// The `Vary` names, lowercased and sorted; `nil` for `Vary: *`, which no request matches.
    private static func varyHeaders(_ values: [String]) -> [String]? {
        var names: Set<String> = []
        for value in values {
            for part in value.split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces).lowercased()
                if name == "*" { return nil }
                if !name.isEmpty { names.insert(name) }
            }
        }
        return names.sorted()
    }

    /// Response headers without cookies or the client's secret headers, which must not be
    /// written to a cache (and a disk) nor replayed.
    private static func storable(_ fields: HTTPFields, redactor: Redactor) -> HTTPFields {
        var fields = fields
        fields[.setCookie] = nil
        for name in redactor.secretHeaders { fields[name] = nil }
        return fields
    }

    /// Reports what storing dropped, and a shared storage's failure.
    private func report(
        _ outcome: ResponseCache.StoreOutcome,
        url: String,
        _ request: HTTPRequest,
        _ context: RequestContext
    ) {
        for (summary, reason) in outcome.evicted {
            evicted(summary, reason, request, context)
        }
        if let failure = outcome.failure { unavailable(failure, url: url, request, context) }
    }

    /// Reports what a removal dropped, and a shared storage's failure.
    private func report(
        _ removal: ResponseCache.Removal,
        _ reason: CacheEvent.EvictionReason,
        url: String,
        _ request: HTTPRequest,
        _ context: RequestContext
    ) {
        for dropped in removal.dropped {
            evicted(dropped, reason, request, context)
        }
        if let failure = removal.failure { unavailable(failure, url: url, request, context) }
    }

    /// Reports that the shared storage failed; the request goes on as if nothing were stored.
    private func unavailable(_ failure: any Error, url: String, _ request: HTTPRequest, _ context: RequestContext) {
        emit(.unavailable, url: displayURL(url, context), failure: failure, request, context)
    }

    /// Reports that `summary`'s entry was dropped.
    private func evicted(
        _ summary: CacheEntrySummary,
        _ reason: CacheEvent.EvictionReason,
        _ request: HTTPRequest,
        _ context: RequestContext
    ) {
        emit(.evicted, reason: reason, url: summary.displayURL, bytes: summary.byteCount, request, context)
    }

    /// Reports a cache event; `url` is only worked out when there are hooks to tell.
    private func emit(
        _ kind: CacheEvent.Kind,
        reason: CacheEvent.EvictionReason? = nil,
        url: @autoclosure () -> String,
        bytes: Int? = nil,
        failure: (any Error)? = nil,
        _ request: HTTPRequest,
        _ context: RequestContext
    ) {
        guard let hooks else { return }
        hooks.cache(
            CacheEvent(
                kind: kind,
                reason: reason,
                operation: context.operation,
                method: request.method,
                url: url(),
                callID: context.callID,
                attempt: context.attempt,
                byteCount: bytes,
                failure: failure.map { String(describing: $0) }
            )
        )
    }
}

/// The `Cache-Control` directives the cache acts on.
struct CacheControl {
    /// `no-store`: the message may not be kept.
    var noStore = false

    init(_ values: [String]) {
        for value in values {
            for part in value.split(separator: ",") {
                let directive = part.split(separator: "=", maxSplits: 1).first ?? ""
                if directive.trimmingCharacters(in: .whitespaces).lowercased() == "no-store" { noStore = true }
            }
        }
    }
}
