// A two-screen app: a list with a selected row, a detail screen with a scroll offset.
// Run it twice with the same state directory: the first run saves, the second restores.
import AmberCore

final class Screens {
    var selectedRow: Int64 = -1   // the list screen's state
    var scrollOffset = 0.0        // the detail screen's state
}
let app = Screens()

var options = EngineOptions()   // default: $XDG_STATE_HOME/<app-id>, encrypted under archive.key
if CommandLine.arguments.count > 1 { options.storage = .directory(CommandLine.arguments[1]) }
let engine = Engine(configuration: try EngineConfiguration(appID: "org.example.twoscreens", options: options))
engine.delegate = EngineDelegate(shouldSave: { _ in true }, shouldRestore: { _ in true })

let report = engine.launch {
    // The default interface, built before restoration: restoration finds these by path.
    let nav = RestorableObject(kind: .controller, className: "NavigationController", restorationIdentifier: "Nav")
    let list = RestorableObject(kind: .controller, className: "ListController", restorationIdentifier: "List",
        callbacks: RestorableCallbacks(encode: { _, coder in try coder.encode(app.selectedRow, forKey: "selectedRow") },
                                       decode: { _, decoder in app.selectedRow = try decoder.decodeInt64(forKey: "selectedRow") }))
    let detail = RestorableObject(kind: .controller, className: "DetailController", restorationIdentifier: "Detail",
        callbacks: RestorableCallbacks(encode: { _, coder in try coder.encode(app.scrollOffset, forKey: "scrollOffset") },
                                       decode: { _, decoder in app.scrollOffset = try decoder.decodeDouble(forKey: "scrollOffset") }))
    try! nav.addChild(list)
    try! nav.addChild(detail)
    try! engine.addRoot(nav)
}   // restores, and consumes the archive
print(report)   // what was restored, and why not
print("row \(app.selectedRow), offset \(app.scrollOffset)")

app.selectedRow += 1      // the user picks the next row...
app.scrollOffset += 40    // ...and scrolls its detail
print(try engine.preserve())   // what was saved, and what was left out and why
