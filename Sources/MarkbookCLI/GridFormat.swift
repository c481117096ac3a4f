import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook

/// The file layouts `markbook export` writes and `markbook import` reads.
enum GridFormat: String, Sendable {
    case csv, tsv, json

    /// The export's format from `--format`: CSV unless csv, tsv or json is asked for.
    static func forExport(_ format: OutputFormat) throws -> GridFormat {
        switch format {
        case .table, .csv: return .csv
        case .tsv: return .tsv
        case .json: return .json
        case .jsonl:
            throw ValidationError("markbook export writes csv (the default), tsv or json, not jsonl.")
        }
    }

    /// The format of a file to import: `.json` and `.tsv`/`.tab` by extension; otherwise a file
    /// whose first line holds tabs but no commas is TSV, and anything else CSV.
    static func forImport(path: String, data: Data) -> GridFormat {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "json": return .json
        case "tsv", "tab": return .tsv
        case "csv": return .csv
        default:
            let firstLine = data.prefix { $0 != UInt8(ascii: "\n") }
            if firstLine.first == UInt8(ascii: "{") { return .json }
            let hasTab = firstLine.contains(UInt8(ascii: "\t"))
            return hasTab && !firstLine.contains(UInt8(ascii: ",")) ? .tsv : .csv
        }
    }

    /// The writer for the delimited formats.
    var delimited: DelimitedText? {
        switch self {
        case .csv: return .csv
        case .tsv: return .tsv
        case .json: return nil
        }
    }

    /// Reads a file of this format as a table for ``MarkbookGrid/init(table:)``.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` naming `path` for text that cannot be read.
    func table(from data: Data, path: String) throws -> [[String]] {
        if let delimited { return try delimited.read(data) }
        do {
            return try JSONDecoder().decode(GridDocument.self, from: data).table()
        } catch {
            throw APIError.usage(
                "\(path) is not a markbook export in JSON: \(JSONFileProblem.describe(error))",
                hint: "Start from 'markbook export KEY --format json', or use CSV."
            )
        }
    }
}
