extension APIError {
    /// The error with every occurrence of each of `secrets` in its message, hint, field errors and
    /// payload replaced by ``Redactor/placeholder``: for an error a server wrote, which may quote a
    /// credential it was sent. Secrets shorter than 4 characters are left alone (see
    /// ``Redactor/scrub(_:removing:)``).
    public func scrubbing(_ secrets: [String]) -> APIError {
        let spellings = Redactor.spellings(ofEach: secrets)
        guard !spellings.isEmpty else { return self }
        var error = self
        func scrub(_ text: String) -> String { Redactor.scrub(text, spellings: spellings) }
        error.details.message = scrub(details.message)
        error.details.hint = details.hint.map(scrub)
        error.details.fieldErrors = details.fieldErrors.map { field in
            APIError.FieldError(field: field.field, messages: field.messages.map(scrub))
        }
        error.details.payload = details.payload.map { $0.mappingStrings(scrub) }
        return error
    }
}

extension JSONValue {
    /// The value with `transform` applied to every string in it, keys left as they are.
    fileprivate func mappingStrings(_ transform: (String) -> String) -> JSONValue {
        switch self {
        case .string(let text): .string(transform(text))
        case .array(let items): .array(items.map { $0.mappingStrings(transform) })
        case .object(let members): .object(members.mapValues { $0.mappingStrings(transform) })
        default: self
        }
    }
}
