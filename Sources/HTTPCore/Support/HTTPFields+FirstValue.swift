import HTTPTypes

extension HTTPFields {
    /// The value of the first field named `name`, for fields that carry one value (`ETag`,
    /// `Last-Modified`): unlike the subscript, which joins every field of the name, it allocates
    /// nothing, which the cache's revalidation path, run on every hit, shows in its profile.
    func firstValue(_ name: HTTPField.Name) -> String? {
        first { $0.name == name }?.value
    }
}
