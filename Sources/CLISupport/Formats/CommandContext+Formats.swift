import ArgumentParser
import Foundation
import HTTPCore

extension CommandContext {
    /// Prints a list of records in the format `--format` asks for, with only the `--fields`
    /// given.
    ///
    /// ```swift
    /// try context.printList(parks.map(CarParkJSON.init)) {
    ///     var table = TextTable(columns: [.init("CAR PARK"), .init("FREE", alignment: .right)])
    ///     for park in parks { table.append([park.name, String(park.freeSlots)]) }
    ///     context.print(table)
    /// }
    /// ```
    ///
    /// The rows are encoded as JSON first, so every format shows the same fields under the same
    /// names as `--json`. `human` prints the table (and anything around it) for `--format table`
    /// without `--fields`; with `--fields` the table has one column per field instead.
    ///
    /// - Throws: `ValidationError` (exit 64) for a `--fields` name no row has; the encoder's error.
    public func printList<Row: Encodable>(_ rows: [Row], human: () throws -> Void) throws {
        try printRows(rows.map { try Self.jsonValue($0) }, document: nil, human: human)
    }

    /// Prints a list of records that `--json` shows inside an object, such as a timetable's
    /// classes next to its week and student: `--format json` prints `envelope` with the (selected)
    /// rows under `rowsKey`; the other formats print the rows alone.
    public func printList<Row: Encodable, Envelope: Encodable>(
        _ rows: [Row],
        envelope: Envelope,
        rowsKey: String,
        human: () throws -> Void
    ) throws {
        let wrapper = try Self.jsonValue(envelope)
        try printRows(
            rows.map { try Self.jsonValue($0) },
            document: { rows in
                guard case .object(var members) = wrapper else { return .array(rows) }
                members[rowsKey] = .array(rows)
                return .object(members)
            },
            human: human
        )
    }

    /// Prints one record: for `--format json` a pretty object, for `jsonl` one line, for `csv` and
    /// `tsv` a header and one row; `human` prints it for `--format table` without `--fields`,
    /// and with `--fields` each field is shown on a line of its own.
    ///
    /// - Throws: `ValidationError` (exit 64) for a `--fields` name the record lacks.
    public func printRecord(_ value: some Encodable, human: () throws -> Void) throws {
        let record = try Self.jsonValue(value)
        guard outputFormat != .table || fields != nil else {
            try human()
            return
        }
        let selection = try fields.map { try FieldSelection($0, records: [record]) }
        switch outputFormat {
        case .json:
            try writeJSON(selection?.subset(of: record) ?? record)
        case .table:
            guard let selection else { return }
            var table = TextTable(columns: [.init("FIELD"), .init("VALUE")], showsHeader: false)
            for (name, value) in zip(selection.fields.names, selection.values(of: scrubber.scrub(record))) {
                table.append([name, Self.humanCell(value)])
            }
            print(table)
        case .jsonl, .csv, .tsv:
            try printRows([record], document: nil, human: {})
        }
    }

    func printRows(
        _ records: [JSONValue],
        document: (([JSONValue]) -> JSONValue)?,
        human: () throws -> Void
    ) throws {
        guard outputFormat != .table || fields != nil else {
            try human()
            return
        }
        let selection = try fields.map { try FieldSelection($0, records: records) }
        switch outputFormat {
        case .json:
            let shown = selection.map { selection in records.map(selection.subset(of:)) } ?? records
            try writeJSON(document?(shown) ?? .array(shown))
        case .jsonl:
            for record in records {
                printJSONLine(selection?.subset(of: record) ?? record)
            }
        case .csv, .tsv:
            // Scrubbed as values: once quotes are doubled or escaped, a secret holding one would
            // no longer match the text scrubber.
            let records = records.map { scrubber.scrub($0) }
            let columns = try selection ?? FieldSelection(FieldSelection.topLevelFields(of: records), records: [])
            let line = outputFormat == .csv ? DelimitedCells.csvLine : DelimitedCells.tsvLine
            // An empty list without --fields has no columns to name: no header, rather than an
            // empty line a reader would take for a record.
            guard !columns.fields.names.isEmpty else { return }
            print(line(columns.fields.names))
            for record in records {
                print(line(columns.values(of: record).map(DelimitedCells.cell)))
            }
        case .table:
            guard let selection else { return }
            let values = records.map { selection.values(of: scrubber.scrub($0)) }
            let columns = selection.fields.names.indices.map { index in
                let numeric = values.allSatisfy { row in
                    switch row[index] {
                    case nil, .null?, .integer?, .number?: return true
                    default: return false
                    }
                }
                return TextTable.Column(selection.fields.names[index].uppercased(), alignment: numeric ? .right : .left)
            }
            print(TextTable(columns: columns, rows: values.map { $0.map(Self.humanCell) }))
        }
    }

    /// Cell text for people: like CSV, but a list of plain values reads `a, b, c`.
    static func humanCell(_ value: JSONValue?) -> String {
        if case .array(let items)? = value, items.allSatisfy({ $0.arrayValue == nil && $0.objectValue == nil }) {
            return items.map(DelimitedCells.cell).joined(separator: ", ")
        }
        return DelimitedCells.cell(value)
    }

    static func jsonValue(_ value: some Encodable) throws -> JSONValue {
        if let value = value as? JSONValue { return value }
        return try JSONValue(parsing: JSONEncoder().encode(value))
    }
}
