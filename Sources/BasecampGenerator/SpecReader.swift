import Foundation
import OpenAPIKit

/// Reads an OpenAPIKit document into an ``APIModel``.
struct SpecReader {
    let document: OpenAPI.Document

    func read() throws -> APIModel {
        var schemas: [SchemaModel] = []
        for (key, schema) in document.components.schemas {
            schemas.append(try readSchema(name: key.rawValue, schema: schema))
        }
        schemas.sort { $0.name < $1.name }
        var operations: [OperationModel] = []
        for (path, item) in document.paths {
            let pathItem = try document.components.lookup(item)
            for endpoint in pathItem.endpoints {
                operations.append(try readOperation(path: path.rawValue, method: endpoint.method, endpoint.operation))
            }
        }
        operations.sort { ($0.service, $0.id) < ($1.service, $1.id) }
        return APIModel(schemas: schemas, operations: operations)
    }

    // MARK: Schemas

    private func readSchema(name: String, schema: JSONSchema) throws -> SchemaModel {
        var model = try readSchemaKind(name: name, schema: schema)
        model.description = schema.description
        return model
    }

    private func readSchemaKind(name: String, schema: JSONSchema) throws -> SchemaModel {
        let swiftName =
            extensionString(schema.vendorExtensions, "x-basecamp-swift-name") ?? Naming.typeName(schema: name)
        switch schema.value {
        case .object(_, let object):
            if object.properties.isEmpty, let additional = object.additionalProperties?.b {
                return SchemaModel(
                    name: name,
                    swiftName: swiftName,
                    kind: .alias(.map(try typeRef(additional, context: name)))
                )
            }
            var properties: [PropertyModel] = []
            for (jsonName, property) in object.properties {
                properties.append(
                    try readProperty(
                        jsonName: jsonName,
                        schema: property,
                        required: object.requiredProperties.contains(jsonName),
                        owner: name
                    )
                )
            }
            properties.sort { $0.jsonName < $1.jsonName }
            return SchemaModel(name: name, swiftName: swiftName, kind: .object(properties))
        case .string(let core, _):
            if let values = core.allowedValues {
                return SchemaModel(
                    name: name,
                    swiftName: swiftName,
                    kind: .stringEnum(values.compactMap { $0.value as? String })
                )
            }
            return SchemaModel(name: name, swiftName: swiftName, kind: .alias(try typeRef(schema, context: name)))
        default:
            return SchemaModel(name: name, swiftName: swiftName, kind: .alias(try typeRef(schema, context: name)))
        }
    }

    private func readProperty(
        jsonName: String,
        schema: JSONSchema,
        required: Bool,
        owner: String
    ) throws -> PropertyModel {
        var nullable = schema.nullable
        var target = schema
        if case .any(let options, _) = schema.value {
            let nonNull = options.filter { !$0.isNull }
            nullable = nullable || nonNull.count < options.count
            guard nonNull.count == 1, let only = nonNull.first else {
                throw SpecError("\(owner).\(jsonName): only `anyOf: [X, null]` is supported")
            }
            target = only
        }
        var type = try typeRef(target, context: "\(owner).\(jsonName)")
        if case .string = type, let values = target.allowedValues?.compactMap({ $0.value as? String }), !values.isEmpty
        {
            type = .inlineEnum(Naming.typeName(fromProperty: Naming.propertyName(jsonName)), values)
        }
        return PropertyModel(
            jsonName: jsonName,
            swiftName: Naming.propertyName(jsonName),
            type: type,
            isRequired: required,
            isNullable: nullable,
            quirk: extensionString(schema.vendorExtensions, "x-basecamp-wire-quirk"),
            isDeprecated: schema.deprecated,
            format: target.formatString,
            description: schema.description ?? target.description
        )
    }

    func typeRef(_ schema: JSONSchema, context: String) throws -> TypeRef {
        switch schema.value {
        case .reference(let reference, _):
            guard let name = reference.name else { throw SpecError("\(context): unnamed reference") }
            return .ref(name)
        case .string(let core, _):
            switch core.format.rawValue {
            case "date": return .date
            case "date-time": return .dateTime
            case "binary": return .binary
            default: return .string
            }
        case .integer(let core, _):
            return core.format == .int32 ? .int32 : .int64
        case .number:
            return .double
        case .boolean:
            return .bool
        case .array(_, let array):
            guard let items = array.items else { throw SpecError("\(context): array without items") }
            return .array(try typeRef(items, context: context))
        case .object(_, let object):
            guard object.properties.isEmpty, let additional = object.additionalProperties?.b else {
                throw SpecError("\(context): inline objects are not supported; give the object a component name")
            }
            return .map(try typeRef(additional, context: context))
        case .fragment:
            return .json
        default:
            throw SpecError("\(context): unsupported schema")
        }
    }

    // MARK: Operations

    private func readOperation(
        path: String,
        method: OpenAPI.HttpMethod,
        _ operation: OpenAPI.Operation
    ) throws -> OperationModel {
        guard let id = operation.operationId else { throw SpecError("\(method.rawValue) \(path): no operationId") }
        let extensions = operation.vendorExtensions
        guard let service = extensionString(extensions, "x-basecamp-service"),
            let swiftName = extensionString(extensions, "x-basecamp-swift-name")
        else { throw SpecError("\(id): x-basecamp-service and x-basecamp-swift-name are required") }

        var pathParameters: [ParameterModel] = []
        var queryParameters: [ParameterModel] = []
        for either in operation.parameters {
            let parameter = try document.components.lookup(either)
            guard let schema = parameter.schemaOrContent.schemaValue else {
                throw SpecError("\(id).\(parameter.name): parameters need a schema")
            }
            let model = ParameterModel(
                name: parameter.name,
                swiftName: Naming.parameterName(parameter.name),
                type: try typeRef(schema, context: "\(id).\(parameter.name)"),
                isRequired: parameter.required
            )
            switch parameter.location {
            case .path: pathParameters.append(model)
            case .query: queryParameters.append(model)
            default: throw SpecError("\(id).\(parameter.name): only path and query parameters are supported")
            }
        }
        let order = Naming.placeholders(in: path)
        pathParameters.sort { (order.firstIndex(of: $0.name) ?? 0) < (order.firstIndex(of: $1.name) ?? 0) }
        guard pathParameters.map(\.name) == order else {
            throw SpecError("\(id): path parameters do not match \(path)")
        }

        var body: BodyModel?
        if let requestBody = operation.requestBody {
            let request = try document.components.lookup(requestBody)
            guard let (contentType, either) = request.content.first, request.content.count == 1 else {
                throw SpecError("\(id): exactly one request content type is supported")
            }
            let content = try document.components.lookup(either)
            switch contentType.typeAndSubtype {
            case "application/json":
                guard let name = content.schema?.reference?.name else {
                    throw SpecError("\(id): JSON bodies must reference a schema")
                }
                body = .json(schema: name)
            case "application/octet-stream":
                guard let name = content.schema?.reference?.name else {
                    throw SpecError("\(id): raw bodies must reference a schema")
                }
                body = .octetStream(schema: name)
            case "multipart/form-data":
                guard let field = content.schema?.objectContext?.properties.keys.first else {
                    throw SpecError("\(id): multipart bodies need one field")
                }
                body = .multipart(field: field)
            default:
                throw SpecError("\(id): unsupported request content type \(contentType.rawValue)")
            }
        }

        var success: (Int, OpenAPI.Response)?
        for (status, either) in operation.responses {
            guard case .status(let code) = status.value, (200..<300).contains(code) else { continue }
            guard success == nil else { throw SpecError("\(id): more than one success response") }
            success = (code, try document.components.lookup(either))
        }
        guard let (successStatus, successResponse) = success else { throw SpecError("\(id): no success response") }
        var response = ResponseModel.none
        if let either = successResponse.content.first?.value, let schema = try document.components.lookup(either).schema
        {
            response = .value(try typeRef(schema, context: "\(id) response"))
        }

        guard let retryValue = extensions["x-basecamp-retry"]?.value as? [String: Any],
            let maxAttempts = retryValue["maxAttempts"] as? Int,
            let baseDelay = retryValue["baseDelayMs"] as? Int,
            let backoff = retryValue["backoff"] as? String,
            let retryOn = retryValue["retryOn"] as? [Int]
        else { throw SpecError("\(id): x-basecamp-retry needs maxAttempts, baseDelayMs, backoff and retryOn") }

        var pagination: PaginationModel?
        if let value = extensions["x-basecamp-pagination"]?.value as? [String: Any] {
            guard value["style"] as? String == "link" else {
                throw SpecError("\(id): only link pagination is supported")
            }
            pagination = PaginationModel(
                pageSize: value["pageSize"] as? Int,
                totalCountHeader: value["totalCountHeader"] as? String,
                itemsKey: value["itemsKey"] as? String
            )
        }
        var writeSemantics: WriteSemanticsModel?
        if let value = extensions["x-basecamp-write-semantics"]?.value as? [String: Any] {
            let read = value["readOperation"] as? String
            let helper = value["mergeHelper"] as? String
            guard let mode = value["mode"] as? String, mode == "patch" || (read != nil && helper != nil) else {
                throw SpecError(
                    "\(id): x-basecamp-write-semantics needs mode, and readOperation and mergeHelper to replace"
                )
            }
            writeSemantics = WriteSemanticsModel(
                mode: mode,
                clearsOmitted: value["clearsOmitted"] as? Bool ?? false,
                preservedOnOmission: value["preservedOnOmission"] as? [String] ?? [],
                callerSupplies: value["callerSupplies"] as? [String] ?? [],
                readOperation: read,
                mergeHelper: helper
            )
        }
        return OperationModel(
            id: id,
            service: service,
            swiftName: swiftName,
            method: method.rawValue.uppercased(),
            path: path,
            summary: operation.summary ?? id,
            pathParameters: pathParameters,
            queryParameters: queryParameters,
            body: body,
            response: response,
            successStatus: successStatus,
            isReadOnly: extensions["x-basecamp-readonly"]?.value as? Bool ?? false,
            isIdempotent: extensions["x-basecamp-idempotent"]?.value as? Bool ?? false,
            retry: RetryModel(
                maxAttempts: maxAttempts,
                baseDelayMilliseconds: baseDelay,
                backoff: backoff,
                retryOn: retryOn
            ),
            pagination: pagination,
            writeSemantics: writeSemantics
        )
    }

    private func extensionString(_ extensions: [String: AnyCodable], _ key: String) -> String? {
        extensions[key]?.value as? String
    }
}
