extension APIError {
    /// The items ``Paginated/collect(maxItems:)`` had fetched when the walk stopped with this
    /// error (a page failed, or a next link was refused), so they are not lost; `nil` when no
    /// page arrived or the error did not come from `collect`.
    ///
    /// ```swift
    /// do {
    ///     show(try await client.paginate(endpoint).collect())
    /// } catch let error as APIError {
    ///     if let partial = error.partialList(of: Todo.self) { show(partial) }  // truncated: true
    ///     throw error
    /// }
    /// ```
    ///
    /// Iterating with `for try await` or ``Paginated/pages`` needs no such thing: every item of
    /// the pages before the failure is handed out before the error is thrown.
    ///
    /// - Parameter type: The list's item type, as given to ``Client/paginate(_:options:)``.
    public func partialList<Item: Sendable>(of type: Item.Type = Item.self) -> ListResult<Item>? {
        details.partialList as? ListResult<Item>
    }

    /// The same error carrying `partial` for ``partialList(of:)``, for a walk of your own that
    /// stops after some pages and should not lose what they held.
    public func withPartialList<Item: Sendable>(_ partial: ListResult<Item>) -> APIError {
        withPartialResult(partial)
    }

    /// What a walk of another shape had collected when it stopped with this error (an SDK's list
    /// kept inside an object, say), as the type it was attached as; `nil` for any other type.
    public func partialResult<Value: Sendable>(as type: Value.Type = Value.self) -> Value? {
        details.partialList as? Value
    }

    /// The same error carrying `partial` for ``partialResult(as:)``, for a walk whose result is
    /// not a ``ListResult``.
    public func withPartialResult<Value: Sendable>(_ partial: Value) -> APIError {
        var copy = self
        copy.details.partialList = partial
        return copy
    }
}
