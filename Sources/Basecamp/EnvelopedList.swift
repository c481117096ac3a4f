import HTTPCore

/// A list the API sends inside an object on every page, collected across the pages.
///
/// A person's progress report is one: each page holds the person and a page of their events.
/// The object is the first page's, so one page is fetched even when `maxItems` is 0. When a later
/// page fails, the error carries what arrived before it (``HTTPCore/APIError/partialEnvelope(of:)``).
///
/// ```swift
/// let progress = try await account.reports.getPersonProgress(personID: 42)
/// print(progress.value.person.name, progress.value.events.count, progress.meta.truncated)
/// ```
public struct EnvelopedList<Envelope: Sendable>: Sendable {
    /// The object as the first page sent it, its list holding every item fetched from every page.
    public var value: Envelope
    /// Total count, truncation and page count of the list.
    public var meta: ListMeta

    /// Creates a result.
    public init(value: Envelope, meta: ListMeta) {
        self.value = value
        self.meta = meta
    }
}

extension EnvelopedList: Equatable where Envelope: Equatable {}
extension EnvelopedList: Hashable where Envelope: Hashable {}

extension APIError {
    /// What a walk of a list kept inside an object (``ReportsService/getPersonProgress(personID:maxItems:)``,
    /// ``AccountClient/performEnveloped(_:pathParameters:query:options:where:)``) had fetched when
    /// it stopped with this error: the first page's object with the items of the pages before the
    /// failure, `meta.truncated` set; `nil` when no page arrived.
    ///
    /// - Parameter type: The object's type: `GetPersonProgressResponse`, or `JSONValue` for
    ///   `performEnveloped`.
    public func partialEnvelope<Envelope: Sendable>(of type: Envelope.Type = Envelope.self) -> EnvelopedList<Envelope>?
    {
        partialResult(as: EnvelopedList<Envelope>.self)
    }
}
