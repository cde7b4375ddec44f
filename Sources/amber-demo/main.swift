// amber-demo: the seeds' Homepwner item store, archived with AmberArchive's keyed archiver in
// the NSKeyedArchiver layout and read back (the second part of scripts/demo.sh; the first is
// the C host, scripts/demo-c.sh). It writes the archive to the path given (default:
// homepwner.archive), decodes it, and prints what it read; scripts/demo.sh then shows the file
// with `amber dump --keyed`.

import AmberArchive
import Foundation

func writeFile(_ path: String, _ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic) }
func readFile(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

final class Item {
    var itemName: String
    var serialNumber: String
    var valueInDollars: Int64
    var dateCreated: Double
    var itemKey: String
    /// The store that owns the item: a reference back, so the graph has cycles.
    var store: ItemStore?

    init(itemName: String, serialNumber: String, valueInDollars: Int64, dateCreated: Double, itemKey: String) {
        self.itemName = itemName
        self.serialNumber = serialNumber
        self.valueInDollars = valueInDollars
        self.dateCreated = dateCreated
        self.itemKey = itemKey
    }
}

final class ItemStore {
    var items: [Item] = []
    /// The item last looked at: the same object as one in `items` (a shared reference).
    var selected: Item?
}

func registry() throws -> ArchiveClassRegistry {
    let registry = ArchiveClassRegistry()
    try registry.register(ArchiveClass(
        name: "BNRItem",
        encode: { object, coder in
            let item = object as! Item
            coder.encode(item.itemName, forKey: "itemName")
            coder.encode(item.serialNumber, forKey: "serialNumber")
            coder.encode(item.valueInDollars, forKey: "valueInDollars")
            coder.encode(date: item.dateCreated, forKey: "dateCreated")
            coder.encode(item.itemKey, forKey: "itemKey")
            try coder.encodeObject(item.store, forKey: "store")
        },
        make: { coder in
            Item(itemName: try coder.decodeString(forKey: "itemName"),
                 serialNumber: try coder.decodeString(forKey: "serialNumber"),
                 valueInDollars: try coder.decodeInt64(forKey: "valueInDollars"),
                 dateCreated: try coder.decodeDate(forKey: "dateCreated"),
                 itemKey: try coder.decodeString(forKey: "itemKey"))
        },
        decode: { object, coder in
            (object as! Item).store = try coder.decodeObject(forKey: "store", ofClasses: ["BNRItemStore"]) as? ItemStore
        }), for: Item.self)
    try registry.register(ArchiveClass(
        name: "BNRItemStore",
        encode: { object, coder in
            let store = object as! ItemStore
            try coder.encodeObjects(store.items, forKey: "items")
            try coder.encodeObject(store.selected, forKey: "selected")
        },
        make: { _ in ItemStore() },
        decode: { object, coder in
            let store = object as! ItemStore
            store.items = try coder.decodeObjects(forKey: "items", ofClasses: ["BNRItem"], as: Item.self)
            store.selected = try coder.decodeObject(forKey: "selected", ofClasses: ["BNRItem"]) as? Item
        }), for: ItemStore.self)
    return registry
}

func main() throws {
    let path = CommandLine.arguments.dropFirst().first ?? "homepwner.archive"
    let store = ItemStore()
    let names = [("Rusty", "Bear"), ("Shiny", "Spork"), ("Fluffy", "Mac")]
    for (i, (adjective, noun)) in names.enumerated() {
        let item = Item(itemName: "\(adjective) \(noun)", serialNumber: "\(i)A\(i)B\(i)",
                        valueInDollars: Int64(10 + 17 * i), dateCreated: 785_000_000 + Double(i) * 3600,
                        itemKey: "3F2504E0-4F89-11D3-9A0C-03054\(i)C3301")
        item.store = store
        store.items.append(item)
    }
    store.selected = store.items[1]

    let registry = try registry()
    let archiver = KeyedArchiver(registry: registry)
    try archiver.encodeObject(store, forKey: "root")
    let bytes = try archiver.finishEncoding()
    try writeFile(path, bytes)
    print("wrote \(path): \(bytes.count) bytes, \(store.items.count) items")

    let unarchiver = try KeyedUnarchiver(bytes: try readFile(path), registry: registry)
    unarchiver.requiresSecureCoding = true
    guard let back = try unarchiver.decodeObject(forKey: "root", ofClasses: ["BNRItemStore"]) as? ItemStore else {
        throw ArchiveError(.typeMismatch, "the root is not an item store")
    }
    print("read back \(back.items.count) items:")
    for item in back.items {
        print("  \(item.itemName)  serial \(item.serialNumber)  $\(item.valueInDollars)  key \(item.itemKey)  store is the root: \(item.store === back)")
    }
    print("selected item is items[1] (one shared object): \(back.selected === back.items[1])")
}

do {
    try main()
} catch {
    print("amber-demo: \(error)")
    exit(1)
}
