import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook

/// `markbook import KEY FILE [--dry-run] [--skip-invalid] [--ignore-unknown-columns]`: writes a
/// grid's results back.
struct ImportCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import results from a spreadsheet: print the plan, then write what changed.",
        discussion: """
            FILE is a grid as 'markbook export' writes it (CSV, TSV or JSON, told apart by the \
            extension or the first line). Columns may be in any order; students are matched by sid \
            and tasks by name or key; a blank cell means no change.

            The plan is printed first: each change (old -> new), how many results are unchanged, \
            and the rows and columns that match no student or task (the first 10 of a long list; \
            --verbose prints them all). Nothing is written and the exit code is 9 when a column \
            names no task (a misspelt header would drop its marks), unless --ignore-unknown-columns, \
            or when any value is invalid (not a number, out of range, too many decimals), unless \
            --skip-invalid writes the rest. Each change is one write of an absolute value, sent a \
            few at a time; the markbook is read again just before writing, so an import that was \
            interrupted or partly failed can simply be run again: it writes only what is still \
            different, and never overwrites a result someone changed in the meantime. A write whose \
            answer was lost may or may not have landed: it is reported as an unknown outcome, and \
            the re-run's plan shows it as unchanged if it did.

            Exit codes: 0 when every change is written (or nothing needed writing); 9 when columns \
            or values are refused and nothing was written; 8 (ambiguous) when answers were lost: \
            re-run to check; 12 (import_conflict) when a result changed while importing; otherwise \
            the code of the first failed write (6 network, 7 server, ...).

            Examples:
              markbook --sandbox export 1000001 --output 10MAT.csv
              markbook --sandbox import 1000001 10MAT.csv --dry-run
              markbook --sandbox import 1000001 10MAT.csv
              markbook --sandbox import 1000001 10MAT.csv --skip-invalid --json
            """
    )

    /// The exit code of an import that found results changed under it.
    static let conflictExitCode: Int32 = 12

    @ParentCommand var tool: MarkbookTool

    @OptionGroup var markbook: MarkbookKeyArgument

    @Argument(help: ArgumentHelp("The grid to import: .csv, .tsv or .json.", valueName: "file"))
    var file: String

    @Flag(help: "Print the plan and write nothing.")
    var dryRun = false

    @Flag(help: "Write the valid changes even when some values are invalid (they are listed and left alone).")
    var skipInvalid = false

    @Flag(help: "Import the other columns even when some headers name no task (they are listed and left alone).")
    var ignoreUnknownColumns = false

    @Flag(help: "Accept numbers below 0 or above a task's maximum.")
    var allowOutOfRange = false

    @Flag(help: "Accept text results (e.g. grades such as A) instead of requiring numbers.")
    var text = false

    @Option(help: ArgumentHelp("The most writes in flight at once (1 to 16).", valueName: "n"))
    var concurrency = MarkbookImporter.defaultMaximumConcurrentWrites

    func validate() throws {
        guard (1...16).contains(concurrency) else {
            throw ValidationError("--concurrency must be from 1 to 16, not \(concurrency).")
        }
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        guard context.fields == nil, context.outputFormat == .table || context.outputFormat == .json else {
            throw ValidationError(
                "markbook import prints its plan and report as text or --json; --format csv, tsv, "
                    + "jsonl and --fields do not apply."
            )
        }
        let grid = try readGrid()
        let importer = MarkbookImporter(client: client, maximumConcurrentWrites: concurrency)
        let rules = MarkbookResultRules(allowsOutOfRange: allowOutOfRange, allowsText: text)
        let plan = try await importer.plan(markbookKey: markbook.key, grid: grid, rules: rules)
        let view = ImportPlanView(
            plan: plan,
            file: file,
            skipsInvalid: skipInvalid,
            ignoresUnknownColumns: ignoreUnknownColumns,
            listsAll: context.isVerbose
        )
        let refusal = refusal(of: plan)
        if dryRun || refusal != nil || plan.isEmpty {
            if context.outputsJSON {
                try context.printJSON(ImportJSON(plan: view.json, report: nil, dryRun: dryRun))
            } else {
                view.print(in: context)
            }
            if let refusal { throw refusal }
            if !context.outputsJSON {
                context.print(plan.isEmpty ? "Nothing to write." : "Dry run: nothing was written.")
            }
            return
        }
        if !context.outputsJSON { view.print(in: context) }
        let progress = context.progress
        let report = try await importer.apply(
            plan,
            skippingInvalid: skipInvalid,
            ignoringUnknownColumns: ignoreUnknownColumns
        ) { step in
            guard step.total > 0 else { return }
            progress.update(ImportReportView.bar(completed: step.completed, total: step.total))
        }
        progress.clear()
        let reportView = ImportReportView(report: report, plan: plan, listsAll: context.isVerbose)
        if context.outputsJSON {
            try context.printJSON(ImportJSON(plan: view.json, report: reportView.json, dryRun: false))
        } else {
            reportView.print(in: context)
        }
        try reportView.checkComplete()
    }

    /// Reads and parses FILE, before any request, so a bad file is a usage error (exit 64).
    private func readGrid() throws -> MarkbookGrid {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ValidationError("Cannot read \(file): \(Self.reason(error)).")
        }
        let format = GridFormat.forImport(path: file, data: data)
        do {
            return try MarkbookGrid(table: format.table(from: data, path: file))
        } catch let error as APIError where error.code == .usage {
            throw APIError.usage("\(file): \(error.message)", hint: error.hint)
        }
    }

    private static func reason(_ error: any Error) -> String {
        guard let error = error as? CocoaError else { return "\(error)" }
        switch error.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
        case .fileReadNoPermission: return "permission denied"
        default: return error.localizedDescription
        }
    }

    /// Why the plan may not be written as it is: columns that name no task first (the file's
    /// shape), then invalid values; `nil` when it may.
    private func refusal(of plan: MarkbookImportPlan) -> APIError? {
        if !plan.unknownColumns.isEmpty, !ignoreUnknownColumns {
            return plan.unknownColumnsError().withHint(
                "Correct the headers ('markbook show \(markbook.key)' lists the tasks; a shared name needs the key), or "
                    + "pass --ignore-unknown-columns to import the other columns."
            )
        }
        guard plan.hasInvalidValues, !skipInvalid else { return nil }
        let count = plan.invalid.count
        let values = count == 1 ? "1 value is" : "\(count) values are"
        return APIError.validation(
            APIError.Details(
                message: "\(values) invalid; " + (dryRun ? "an import would write nothing." : "nothing was written."),
                hint: "Correct them in the file, or pass --skip-invalid to write the other changes."
            )
        )
    }
}

/// `--json` output: the plan, and the report once writing has run.
struct ImportJSON: Encodable {
    var plan: ImportPlanView.JSON
    var report: ImportReportView.JSON?
    var dryRun: Bool

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(plan, forKey: .plan)
        try container.encode(Nullable(report), forKey: .report)
        try container.encode(dryRun, forKey: .dryRun)
    }

    enum CodingKeys: String, CodingKey {
        case plan, report, dryRun
    }
}
