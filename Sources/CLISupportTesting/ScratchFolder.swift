public import Foundation

/// A fresh folder under the temporary directory for one test's files, so parallel tests never
/// share one; ``remove()`` it when the test is done.
///
/// ```swift
/// let folder = try ScratchFolder("export")
/// defer { folder.remove() }
/// let result = try await BuiltExecutable.run("markbook", arguments: ["export", "1", "-o", folder.path("out.csv")])
/// ```
public struct ScratchFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Creates an empty folder whose name starts with `label`.
    ///
    /// - Throws: The file system's error when the folder cannot be created.
    public init(_ label: String = "scratch") throws {
        url = FileManager.default.temporaryDirectory.appending(path: "\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The URL of `name` inside the folder.
    public func file(_ name: String) -> URL { url.appending(path: name) }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { file(name).path }

    /// The names in the folder, sorted.
    ///
    /// - Throws: The file system's error when the folder cannot be listed.
    public func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }

    /// Removes the folder and everything in it; one already gone is no error.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
