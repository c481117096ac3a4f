import Foundation
import HTTPTypes

// The index a cache keeps for a memory or disk storage: the storage is a key–value store and
// its calls are quick and synchronous, so they run under the index's lock and the two never
// disagree. A shared storage never reaches this code.
extension ResponseCache {
    struct Record: Sendable {
        var summary: CacheEntrySummary
        var lastUse: UInt64
    }

    struct IndexState: Sendable {
        var loaded = false
        var records: [String: Record] = [:]
        var byPrimary: [String: Set<String>] = [:]
        var byURL: [String: Set<String>] = [:]
        var totalBytes = 0
        var useCounter: UInt64 = 0
    }

    func indexedUsage() -> CacheUsage {
        state.withLock { state in
            load(&state)
            return CacheUsage(entryCount: state.records.count, byteCount: state.totalBytes)
        }
    }

    func indexedRemoveAll() {
        state.withLock { state in
            indexedStorage.removeAll()
            state = IndexState()
            state.loaded = true
        }
    }

    func indexedLookup(_ key: RequestKey, headers: HTTPFields) -> Lookup {
        state.withLock { state in
            load(&state)
            guard let match = matchingRecord(key, headers: headers, in: state) else {
                return Lookup(entry: nil)
            }
            guard let entry = indexedStorage.entry(forKey: match), entry.key == match else {
                let dropped = remove(match, from: &state)
                return Lookup(entry: nil, dropped: dropped.map { [$0] } ?? [])
            }
            state.useCounter += 1
            state.records[match]?.lastUse = state.useCounter
            return Lookup(entry: entry)
        }
    }

    func indexedRemoveMatching(_ key: RequestKey, headers: HTTPFields) -> CacheEntrySummary? {
        state.withLock { state in
            load(&state)
            return matchingRecord(key, headers: headers, in: state).flatMap { remove($0, from: &state) }
        }
    }

    /// The key of the stored variant whose `Vary` header values equal the request's.
    private func matchingRecord(_ key: RequestKey, headers: HTTPFields, in state: IndexState) -> String? {
        guard let variants = state.byPrimary[key.primary] else { return nil }
        for variant in variants {
            guard let vary = state.records[variant]?.summary.varyHeaders else { continue }
            let candidate = Self.fullKey(primary: key.primary, varyHeaders: vary, request: headers)
            if variants.contains(candidate) { return candidate }
        }
        return nil
    }

    /// Stores `entry`, evicting the least recently used entries beyond the limits.
    func indexedStore(_ entry: CachedResponse) -> StoreOutcome {
        let size = entry.byteCount
        return state.withLock { state in
            load(&state)
            var evicted: [(summary: CacheEntrySummary, reason: CacheEvent.EvictionReason)] = []
            guard size <= maxBytes, maxEntries > 0 else {
                if let dropped = remove(entry.key, from: &state) { evicted.append((dropped, .notCacheable)) }
                return StoreOutcome(stored: false, evicted: evicted)
            }
            do {
                try indexedStorage.store(entry)
            } catch {
                if let dropped = remove(entry.key, from: &state) { evicted.append((dropped, .unreadable)) }
                return StoreOutcome(stored: false, evicted: evicted)
            }
            // A resource whose Vary changed leaves variants that can never match again.
            for variant in state.byPrimary[entry.primaryKey] ?? []
            where variant != entry.key && state.records[variant]?.summary.varyHeaders != entry.varyHeaders {
                if let dropped = remove(variant, from: &state) { evicted.append((dropped, .replaced)) }
            }
            if let old = state.records[entry.key] { state.totalBytes -= old.summary.byteCount }
            state.useCounter += 1
            state.records[entry.key] = Record(summary: entry.summary, lastUse: state.useCounter)
            state.byPrimary[entry.primaryKey, default: []].insert(entry.key)
            state.byURL[entry.urlKey, default: []].insert(entry.key)
            state.totalBytes += size
            while state.records.count > maxEntries || state.totalBytes > maxBytes {
                guard
                    let oldest = state.records.lazy.filter({ $0.key != entry.key })
                        .min(by: { $0.value.lastUse < $1.value.lastUse })?.key,
                    let dropped = remove(oldest, from: &state)
                else { break }
                evicted.append((dropped, .capacity))
            }
            return StoreOutcome(stored: true, evicted: evicted)
        }
    }

    /// Replaces a stored entry's headers, keeping its place.
    func indexedRefresh(_ entry: CachedResponse) {
        state.withLock { state in
            guard let record = state.records[entry.key], (try? indexedStorage.store(entry)) != nil else { return }
            state.totalBytes += entry.byteCount - record.summary.byteCount
            state.records[entry.key]?.summary = entry.summary
        }
    }

    func indexedRemove(key: String) -> CacheEntrySummary? {
        state.withLock { state in
            load(&state)
            return remove(key, from: &state)
        }
    }

    func indexedInvalidate(urlKey: String) -> [CacheEntrySummary] {
        state.withLock { state in
            load(&state)
            return (state.byURL[urlKey] ?? []).compactMap { remove($0, from: &state) }
        }
    }

    private func remove(_ key: String, from state: inout IndexState) -> CacheEntrySummary? {
        indexedStorage.removeEntry(forKey: key)
        guard let record = state.records.removeValue(forKey: key) else { return nil }
        let summary = record.summary
        state.totalBytes -= summary.byteCount
        state.byPrimary[summary.primaryKey]?.remove(key)
        if state.byPrimary[summary.primaryKey]?.isEmpty == true { state.byPrimary[summary.primaryKey] = nil }
        state.byURL[summary.urlKey]?.remove(key)
        if state.byURL[summary.urlKey]?.isEmpty == true { state.byURL[summary.urlKey] = nil }
        return summary
    }

    /// Builds the index from storage the first time it is needed, so a disk cache opened by a
    /// new process knows its entries.
    private func load(_ state: inout IndexState) {
        guard !state.loaded else { return }
        state.loaded = true
        for summary in indexedStorage.summaries() {
            state.useCounter += 1
            state.records[summary.key] = Record(summary: summary, lastUse: state.useCounter)
            state.byPrimary[summary.primaryKey, default: []].insert(summary.key)
            state.byURL[summary.urlKey, default: []].insert(summary.key)
            state.totalBytes += summary.byteCount
        }
        while state.records.count > maxEntries || state.totalBytes > maxBytes {
            guard let oldest = state.records.min(by: { $0.value.lastUse < $1.value.lastUse })?.key,
                remove(oldest, from: &state) != nil
            else { break }
        }
    }
}
