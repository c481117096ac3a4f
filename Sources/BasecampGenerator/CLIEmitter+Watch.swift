extension CLIEmitter {
    /// The schemas of activity feeds, whose lists `--watch` follows as new items arrive.
    static let feedSchemas: Set<String> = ["Event", "TimelineEvent"]

    /// Whether the operation lists a feed (a project's timeline, a recording's events, the
    /// progress reports), so its command takes `--watch`.
    func isWatchable(_ operation: OperationModel) -> Bool {
        guard let pagination = operation.pagination, operation.isReadOnly, case .value(let type) = operation.response
        else { return false }
        switch type {
        case .array(.ref(let item)):
            return Self.feedSchemas.contains(item)
        case .ref(let envelope):
            guard let key = pagination.itemsKey, let schema = model.schema(named: envelope),
                case .object(let properties) = schema.kind,
                case .array(.ref(let item))? = properties.first(where: { $0.jsonName == key })?.type
            else { return false }
            return Self.feedSchemas.contains(item)
        default:
            return false
        }
    }
}

extension CLIEmitter {
    /// `basecamp --sandbox timeline 2085958504 --watch`: the command's example followed, without
    /// the command's name when it is its group's only one.
    func watchExample(_ operation: OperationModel) -> String {
        var words = example(operation).split(separator: " ").map(String.init)
        let alone = model.operations.filter { $0.service == operation.service }.count == 1
        if alone, Self.handWrittenSubcommands[operation.service] == nil, words.count > 3 { words.remove(at: 3) }
        return (words + ["--watch"]).joined(separator: " ")
    }
}
