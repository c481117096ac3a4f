/// An error's description, kept as a `Sendable` cause when the original error type is not.
public struct SendableDescription: Error, Sendable, CustomStringConvertible {
    /// The original error's description.
    public let description: String

    /// Captures `error`'s description.
    public init(_ error: any Error) {
        description = String(describing: error)
    }
}
