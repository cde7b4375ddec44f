import AmberCore
import ArgumentParser

extension Amber {
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the restoration report an engine kept: why a restore did or did not happen.",
            discussion: """
                Reads last-restore.report, which an engine writes beside its archive after each \\
                launch or restore when it is opened with the option to keep the restoration \\
                report (Swift: EngineOptions.keepsRestorationReport; C: \\
                amber_engine_options.keep_restoration_report; Python: \\
                Engine(keep_restoration_report=True)) or runs with AMBER_KEEP_REPORT=1. Prints \\
                when it was written, then the report: why the launch was fresh, or each \\
                archived object's outcome, then the notes. It holds no state values. With \\
                --app, the file is found in that application's state directory \\
                ($XDG_STATE_HOME/<app-id>, else ~/.local/state/<app-id>). --json prints one \\
                JSON document.
                """
        )

        @Flag(name: .long, help: "Print one JSON document instead of text.")
        var json = false

        @Option(name: .long, help: "Find the report in this application's state directory.")
        var app: String?

        @Argument(help: "The report file to read (not with --app).")
        var file: String?

        func validate() throws {
            if app != nil && file != nil { throw ValidationError("give a file or --app, not both") }
            if app == nil && file == nil { throw ValidationError("give the report to read, or --app <app-id>") }
        }

        func run() throws {
            var path = file ?? ""
            let output: String
            do {
                if let app { path = try StateFiles(appID: app).existingReport() }
                let report = try KeptRestorationReport.read(path: path)
                output = json ? String(decoding: JSONWriter.format(Self.json(report, file: path)), as: UTF8.self) : Self.text(report, file: path)
            } catch {
                reject(app.map { "--app \($0)" } ?? path, error)
                throw ExitCode.failure
            }
            writeOut(Array(output.utf8))
        }

        /// The text: the file, the application, when, then the report's own lines (each made
        /// one line: a message may hold anything).
        static func text(_ report: KeptRestorationReport, file: String) -> String {
            var out = "report: \(oneLine(file))\n"
            out += "application: \(oneLine(report.appID))\n"
            out += "written: \(Inspection.dateText(Double(report.written) - 978_307_200))\n"
            for line in report.lines(text: oneLine) { out += line + "\n" }
            return out
        }

        static func json(_ report: KeptRestorationReport, file: String) -> JSON {
            func optional(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }
            let fresh: JSON = report.freshLaunchReason.map {
                let (code, message) = KeptRestorationReport.code(of: $0)
                return .object([("reason", .string(code)), ("message", optional(message)), ("text", .string($0.description))])
            } ?? .null
            let result = report.isFresh ? "fresh" : report.isExtended ? "extended" : "restored"
            return .object([
                ("file", .string(file)),
                ("format", .int(Int64(KeptRestorationReport.formatVersion))),
                ("app", .string(report.appID)),
                ("written", .int(report.written)),
                ("result", .string(result)),
                ("freshLaunch", fresh),
                ("records", .array(report.records.map { r in
                    let (code, message) = KeptRestorationReport.code(of: r.outcome)
                    return .object([
                        ("path", .array(r.path.map { JSON.string($0.identifier) })),
                        ("positions", .array(r.path.map { JSON.int(Int64($0.position)) })),
                        ("class", .string(r.className)),
                        ("kind", .string(KeptRestorationReport.name(of: r.kind))),
                        ("outcome", .string(code)),
                        ("message", optional(message)),
                        ("note", optional(r.note)),
                        ("droppedModelIdentifiers", .int(Int64(r.droppedModelIdentifiers))),
                    ])
                })),
                ("notes", .array(report.notes.map(JSON.string))),
            ])
        }
    }
}
