import HTTPTypes

extension HTTPFields {
    /// The value of the fields named `name`, joined as `headerFields[name]` joins them (`, `, or
    /// `; ` for cookies); `nil` when there is none.
    ///
    /// The subscript reaches its result through a generic `joined(separator:)` over a lazy map,
    /// which looks up runtime type metadata on every call: it was about a tenth of an in-memory
    /// revalidation. This loop specialises, so it costs only the scan of the fields.
    func joinedValue(for name: HTTPField.Name) -> String? {
        var joined: String?
        for field in self where field.name == name {
            if let earlier = joined {
                joined = earlier + name.combiningSeparator + field.value
            } else {
                joined = field.value
            }
        }
        return joined
    }

    /// Whether the fields named `name` have the same values, in the same order, here and in
    /// `other`.
    func hasSameValues(of name: HTTPField.Name, as other: HTTPFields) -> Bool {
        var next = other.startIndex
        for field in self where field.name == name {
            guard let match = other[next...].firstIndex(where: { $0.name == name }),
                other[match].value == field.value
            else { return false }
            next = match + 1
        }
        return !other[next...].contains { $0.name == name }
    }

    /// The position of the one field named `name`; `nil` when there is none or more than one.
    func onlyPosition(of name: HTTPField.Name) -> Int? {
        guard let first = firstIndex(where: { $0.name == name }) else { return nil }
        return self[(first + 1)...].contains { $0.name == name } ? nil : first
    }
}

extension HTTPField.Name {
    /// What goes between repeated fields of this name when they are sent or read as one: `; ` for
    /// cookies (RFC 6265 §5.4), `, ` for every other field (RFC 9110 §5.3).
    var combiningSeparator: String { self == .cookie ? "; " : ", " }
}
