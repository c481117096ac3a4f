import Foundation
import OpenAPIKit

// BasecampGenerator: reads Spec/Basecamp/openapi.json, validates it as OpenAPI 3.1, and writes
// Sources/Basecamp/Generated (models, services, operation catalog, account accessors) and the
// test invocation table. Scripts/generate.sh runs it and formats the output.
//
// Usage: BasecampGenerator SPEC_JSON SOURCES_OUT TESTS_OUT [--cli DIR] [--sandbox DIR] [--sandbox-tests DIR]
//        BasecampGenerator --validate SPEC_JSON
// --cli writes the `basecamp` command's subcommands, --sandbox the sandbox's example payloads (from
// the Spec's examples/ directory and its schemas), --sandbox-tests the test that decodes them.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("BasecampGenerator: \(message)\n".utf8))
    exit(1)
}

func loadDocument(_ path: String) -> OpenAPI.Document {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    let document: OpenAPI.Document
    do {
        document = try JSONDecoder().decode(OpenAPI.Document.self, from: data)
    } catch {
        fail("\(path) is not a valid OpenAPI document: \(error)")
    }
    do {
        let warnings = try document.validate()
        for warning in warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
    } catch {
        fail("\(path) does not validate: \(error)")
    }
    return document
}

/// Writes `files` (relative path → contents) under `directory`, removing any other `.swift`
/// file there so a renamed type leaves nothing behind.
func write(_ files: [String: String], under directory: String) {
    let manager = FileManager.default
    let root = URL(fileURLWithPath: directory)
    if let enumerator = manager.enumerator(at: root, includingPropertiesForKeys: nil) {
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            if files[relative] == nil { try? manager.removeItem(at: url) }
        }
    }
    for (relative, contents) in files.sorted(by: { $0.key < $1.key }) {
        let url = root.appendingPathComponent(relative)
        do {
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        } catch {
            fail("cannot write \(url.path): \(error)")
        }
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--validate" {
    guard arguments.count == 2 else { fail("usage: BasecampGenerator --validate SPEC_JSON") }
    let document = loadDocument(arguments[1])
    do {
        let model = try SpecReader(document: document).read()
        print(
            "\(arguments[1]): valid OpenAPI \(document.openAPIVersion.rawValue); \(model.operations.count) operations, \(model.schemas.count) schemas, \(model.services.count) services"
        )
    } catch {
        fail("\(error)")
    }
    exit(0)
}
let usage = "usage: BasecampGenerator SPEC_JSON SOURCES_OUT TESTS_OUT [--cli DIR] [--sandbox DIR] [--sandbox-tests DIR]"
guard arguments.count >= 3, arguments.count % 2 == 1 else { fail(usage) }
var extraOutputs: [String: String] = [:]
for index in stride(from: 3, to: arguments.count, by: 2) {
    guard ["--cli", "--sandbox", "--sandbox-tests"].contains(arguments[index]) else { fail(usage) }
    extraOutputs[arguments[index]] = arguments[index + 1]
}

let document = loadDocument(arguments[0])
let model: APIModel
do {
    model = try SpecReader(document: document).read()
} catch {
    fail("\(error)")
}

// Names must be unique where Swift needs them to be.
var seenTypes = Set<String>()
for schema in model.schemas where !seenTypes.insert(schema.swiftName).inserted {
    fail("two schemas map to the Swift type \(schema.swiftName)")
}
var seenMethods = Set<String>()
for operation in model.operations where !seenMethods.insert("\(operation.service).\(operation.swiftName)").inserted {
    fail("two operations of \(operation.service) are named \(operation.swiftName)")
}
var seenIDs = Set<String>()
for operation in model.operations where !seenIDs.insert(operation.id).inserted {
    fail("operationId \(operation.id) is used twice")
}

let types = ModelEmitter(model: model)
let services = ServiceEmitter(model: model, types: types)
for operation in model.operations where operation.pagination != nil && services.itemType(operation) == nil {
    fail("\(operation.id) is paginated but its items cannot be found")
}

var sources: [String: String] = [:]
for schema in model.schemas {
    sources["Models/\(schema.swiftName).swift"] = types.file(for: schema)
}
for service in model.services {
    sources["Services/\(Naming.serviceTypeName(service)).swift"] = services.serviceFile(service)
    sources["Catalog/OperationCatalog+\(Naming.typeName(fromProperty: service)).swift"] = services.catalogFile(service)
}
sources["OperationCatalog.swift"] = services.catalogIndexFile()
sources["Catalog/SpecRetryPolicies.swift"] = services.retryPoliciesFile()
sources["AccountClient+Services.swift"] = services.accountFile()
write(sources, under: arguments[1])
write(["OperationInvocations.swift": services.invocationsFile()], under: arguments[2])

if let directory = extraOutputs["--cli"] {
    let cli = CLIEmitter(model: model)
    var files = ["ServiceCommands.swift": cli.indexFile()]
    for service in model.services {
        files["\(Naming.typeName(fromProperty: service))Commands.swift"] = cli.serviceFile(service)
    }
    write(files, under: directory)
}
if extraOutputs["--sandbox"] != nil || extraOutputs["--sandbox-tests"] != nil {
    let examplesDirectory = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent(
        "examples"
    )
    let examples: ExampleEmitter
    do {
        examples = ExampleEmitter(
            model: model,
            handWritten: try ExampleEmitter.loadExamples(directory: examplesDirectory.path)
        )
    } catch {
        fail("\(error)")
    }
    if let directory = extraOutputs["--sandbox"] {
        do {
            write(["BasecampExamples.swift": try examples.sandboxFile()], under: directory)
        } catch {
            fail("\(error)")
        }
    }
    if let directory = extraOutputs["--sandbox-tests"] {
        write(["ExampleDecoding.swift": examples.decodingTestFile()], under: directory)
    }
}
print(
    "Generated \(model.schemas.count) schemas, \(model.services.count) services, \(model.operations.count) operations into \(arguments[1])"
)
