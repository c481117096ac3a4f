import OpenAPIKit

/// The parts of the Spec the generator uses, read out of OpenAPIKit's document once so the
/// emitters work on plain values in a fixed order.
struct APIModel {
    var schemas: [SchemaModel]
    var operations: [OperationModel]

    var services: [String] { Array(Set(operations.map(\.service))).sorted() }

    func schema(named name: String) -> SchemaModel? { schemas.first { $0.name == name } }
}

/// A type as the wire describes it.
indirect enum TypeRef: Equatable {
    case string
    case int32
    case int64
    case double
    case bool
    case date
    case dateTime
    case binary
    case json
    case ref(String)
    case array(TypeRef)
    case map(TypeRef)
    case inlineEnum(String, [String])
}

struct PropertyModel {
    var jsonName: String
    var swiftName: String
    var type: TypeRef
    var isRequired: Bool
    var isNullable: Bool
    var quirk: String?
    var isDeprecated: Bool
    var format: String?
    /// The Spec's `description`, when it has one.
    var description: String?

    var isOptional: Bool { !isRequired || isNullable }
}

enum SchemaKind {
    case object([PropertyModel])
    case stringEnum([String])
    case alias(TypeRef)
}

struct SchemaModel {
    var name: String
    var swiftName: String
    var kind: SchemaKind
    /// The Spec's `description`, when it has one.
    var description: String? = nil
}

struct ParameterModel {
    var name: String
    var swiftName: String
    var type: TypeRef
    var isRequired: Bool
}

enum BodyModel {
    case json(schema: String)
    case octetStream(schema: String)
    case multipart(field: String)
}

enum ResponseModel: Equatable {
    case none
    case value(TypeRef)
}

struct PaginationModel {
    var pageSize: Int?
    var totalCountHeader: String?
    var itemsKey: String?
}

struct RetryModel: Hashable {
    var maxAttempts: Int
    var baseDelayMilliseconds: Int
    var backoff: String
    var retryOn: [Int]
}

/// How an update treats the members its body leaves out: `replace` clears them (and names the
/// read and the merge-safe helper that keep them), `patch` keeps them.
struct WriteSemanticsModel {
    var mode: String
    var clearsOmitted: Bool
    var preservedOnOmission: [String]
    /// Members the read does not return, which a caller of the merge-safe helper must set.
    var callerSupplies: [String] = []
    var readOperation: String?
    var mergeHelper: String?

    var isReplace: Bool { mode == "replace" }
}

struct OperationModel {
    var id: String
    var service: String
    var swiftName: String
    var method: String
    var path: String
    var summary: String
    var pathParameters: [ParameterModel]
    var queryParameters: [ParameterModel]
    var body: BodyModel?
    var response: ResponseModel
    var successStatus: Int
    var isReadOnly: Bool
    var isIdempotent: Bool
    var retry: RetryModel
    var pagination: PaginationModel?
    var writeSemantics: WriteSemanticsModel?
}

struct SpecError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
