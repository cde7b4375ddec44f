import AmberCore

extension Inspection {
    /// The archived tree as a Graphviz DOT graph (`amber inspect --dot`): one node per archived
    /// object, `r<index>` in archive order, labelled with its identifier (and stack position),
    /// class, kind (and kind of view) and the number of keys of its state; an edge from each
    /// parent record to its child, labelled with the relation when it is not the plain one
    /// (presented, restoration child). Controllers are boxes, views rounded boxes, plain objects
    /// notes; roots are bold, omitted objects dashed. No state values are drawn.
    func dot() -> String {
        var out = "digraph amber {\n"
        out += "  graph [label=\(Inspection.dotQuoted(["\(file) — \(objects.count) objects"])), labelloc=t, fontname=\"Helvetica\"];\n"
        out += "  node [fontname=\"Helvetica\", fontsize=10];\n"
        out += "  edge [fontname=\"Helvetica\", fontsize=9];\n"
        for object in objects {
            let r = object.record
            var kind = Inspection.name(r.kind)
            if let v = object.viewKind { kind += " (\(Inspection.name(v)))" }
            let keys = object.state.count
            let last = r.components.last.map(\.description) ?? "(no path)"
            let label = [last, "\(r.className) · \(kind)", "\(keys) key\(keys == 1 ? "" : "s")"]
            var attributes = ["label=\(Inspection.dotQuoted(label))", r.kind == .object ? "shape=note" : "shape=box"]
            var style: [String] = []
            if r.kind == .view { style.append("rounded") }
            if r.isOmitted { style.append("dashed") }
            if !style.isEmpty { attributes.append("style=\"\(style.joined(separator: ","))\"") }
            if r.isRoot { attributes.append("penwidth=2") }
            out += "  r\(object.index) [\(attributes.joined(separator: ", "))];\n"
        }
        for object in objects {
            let r = object.record
            guard let parent = r.parent else { continue }
            var edge = "  r\(parent) -> r\(object.index)"
            switch r.relation {
            case .presented: edge += " [label=\"presented\"]"
            case .restorationChild: edge += " [label=\"restoration child\", style=dashed]"
            case .none, .child, .view: break
            }
            out += edge + ";\n"
        }
        out += "}\n"
        return out
    }

    /// A DOT string of lines: quoted, lines joined by `\n`, `\` and `"` escaped, and control
    /// characters escaped as `amber inspect`'s text escapes them (`oneLine`).
    static func dotQuoted(_ lines: [String]) -> String {
        var out = "\""
        for (n, line) in lines.enumerated() {
            if n > 0 { out += "\\n" }
            for ch in oneLine(line) {
                switch ch {
                case "\\": out += "\\\\"
                case "\"": out += "\\\""
                default: out.append(ch)
                }
            }
        }
        return out + "\""
    }
}
