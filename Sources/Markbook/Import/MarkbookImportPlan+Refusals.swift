public import HTTPCore

extension MarkbookImportPlan {
    /// The error that refuses a plan whose columns name no task: each header with its column, and
    /// nothing written. ``MarkbookImporter/apply(_:skippingInvalid:ignoringUnknownColumns:progress:)``
    /// throws it unless told to ignore those columns.
    public func unknownColumnsError() -> APIError {
        let listed = unknownColumns.map { column in
            let place = "column \(MarkbookGrid.columnLetters(column.columnNumber))"
            guard !column.ambiguousTaskKeys.isEmpty else { return "\"\(column.header)\" (\(place))" }
            let keys = column.ambiguousTaskKeys.map(String.init).joined(separator: ", ")
            return "\"\(column.header)\" (\(place); tasks \(keys) share that name)"
        }
        let count = unknownColumns.count
        let names = count == 1 ? "1 column names" : "\(count) columns name"
        return APIError.validation(
            APIError.Details(
                message:
                    "\(names) no task of markbook \(markbookKey): \(listed.joined(separator: ", ")); nothing was written.",
                hint: "Head each column with a task's name or key (a shared name needs the key), or ignore those "
                    + "columns to import the others."
            )
        )
    }
}
