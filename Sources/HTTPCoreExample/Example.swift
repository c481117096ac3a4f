import APISandbox
import Foundation
import HTTPCore

/// `swift run httpcore-example`: starts a loopback server, defines nothing but `NotesAPI`, and
/// shows a few calls and a structured error.
@main
struct Example {
    static func main() async throws {
        let sandbox = try await Sandbox.start(configuration: SandboxConfiguration(modules: [NotesModule()]))
        defer { print("Stopped the sandbox.") }
        print("Sandbox listening on \(sandbox.baseURL)")

        let client = try Client(configuration: ClientConfiguration(baseURL: sandbox.baseURL))
        let created = try await client.send(NotesAPI.create(Note(title: "Try HTTPCore", pinned: true)))
        _ = try await client.send(NotesAPI.create(Note(title: "Read the README", pinned: false)))
        print("Created note \(created.id ?? 0): \(created.title)")

        let pinned = try await client.send(NotesAPI.list(pinned: true))
        print("Pinned notes: \(pinned.map(\.title))")

        _ = try await client.send(NotesAPI.delete(id: created.id ?? 0))
        do {
            _ = try await client.send(NotesAPI.delete(id: created.id ?? 0))
        } catch let error as APIError {
            print("Deleting it twice fails with \(error.code.rawValue) (exit code \(error.exitCode)): \(error.message)")
        }
        await sandbox.stop()
    }
}
