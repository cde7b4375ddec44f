// The seed corpus of the harnesses (Fuzz/make-harness-seeds.sh writes it to Fuzz/corpus/):
// real archives of variants of the small interface, preserved by an engine, in the forms each
// harness's first byte selects.

import AmberArchive
import AmberCore
import Crypto

enum Seeds {
    /// A variant: a name and what it adds to the default interface before preserving.
    typealias Variant = (name: String, build: (Engine, inout [RestorableObject]) throws -> Void)

    nonisolated(unsafe) static let variants: [Variant] = [
        ("default", { _, _ in }),
        ("values", { engine, made in
            let root = made[0]
            try engine.removeRoot(root)
            let values: [String: ArchiveValue] = [
                "bool": .bool(true), "int": .int(-42), "uint": .uint(.max), "double": .double(3.25),
                "string": .string("Rusty Bear \u{1F43B}"), "data": .data([0, 1, 2, 255]), "date": .date(1e9),
                "uuid": .uuid(Array(0 ..< 16)), "indexPath": .indexPath([0, 3]),
                "array": .array([.int(1), .string("two")]), "set": .set([.int(1)]),
                "dict": .dictionary(["k": .double(1.5), "nested": .array([.null])]),
            ]
            let root2 = FuzzInterface.object(.controller, "NavigationController", "Root", stack: true, values: values)
            try engine.addRoot(root2)
            made.append(root2)
        }),
        ("detail-by-class", { _, made in
            let detail = FuzzInterface.object(
                .controller, "DetailController", "Detail", restorationClass: "DetailRestorer",
                values: ["title": .string("Item 3")])
            try made[1].present(detail)
            FuzzInterface.link(detail, to: made[4])
            made.append(detail)
        }),
        ("settings-by-blueprint", { _, made in
            let settings = FuzzInterface.object(
                .controller, "SettingsController", "Settings", blueprint: "Main/Settings", values: ["tab": .int(2)])
            try made[0].addChild(settings)
            made.append(settings)
        }),
        ("extra-by-delegate", { _, made in
            let extra = FuzzInterface.object(.view, "ExtraView", "Extra", values: ["zoom": .double(2)])
            try made[1].addView(extra)
            made.append(extra)
        }),
        ("declined-and-thrower", { _, made in
            let declined = FuzzInterface.object(.controller, "Hidden", "Hidden", restorationClass: "Decliner")
            try made[0].addChild(declined)
            try declined.addChild(FuzzInterface.object(.controller, "ListController", "Inner"))
            let thrower = FuzzInterface.object(.controller, "Broken", "Broken", restorationClass: "Thrower")
            try made[0].addChild(thrower)
            made += [declined, thrower]
        }),
        ("items-graph", { _, made in
            let a = Item(), b = Item()
            a.name = "Chair"; a.value = 50; a.next = b
            b.name = "Lamp"; b.value = 12
            let holder = FuzzInterface.object(.controller, "ListController", "Items", item: a)
            try made[0].addChild(holder)
            made.append(holder)
        }),
        ("class-mismatch", { engine, made in
            try engine.removeRoot(made[0])
            let root = FuzzInterface.object(.controller, "TabBarController", "Root", values: ["selected": .int(1)])
            try engine.addRoot(root)
            try root.addView(FuzzInterface.object(.view, "TableView", "List"))
            made.append(root)
        }),
        ("two-roots", { engine, made in
            let second = FuzzInterface.object(.controller, "WindowController", "Inspector", values: ["open": .bool(true)])
            try engine.addRoot(second)
            try second.addView(FuzzInterface.object(.view, "TableView", "Table"))
            made.append(second)
        }),
        ("deep", { _, made in
            var parent = made[1]
            for depth in 0 ..< 24 {
                let child = FuzzInterface.object(.controller, "ListController", "Level\(depth)", values: ["d": .int(Int64(depth))])
                try parent.addChild(child)
                made.append(child)
                parent = child
            }
        }),
    ]

    /// The archive of a variant, through `envelope`.
    static func archive(_ variant: Variant, envelope: any ArchiveEnvelope) throws -> [UInt8] {
        let store = MemoryStore()
        let engine = try FuzzInterface.engine(store: store, envelope: envelope)
        var made = try FuzzInterface.defaultInterface(into: engine)
        try variant.build(engine, &made)
        _ = try engine.preserve()
        guard let bytes = store.bytes else { throw HarnessError("variant \(variant.name) saved nothing") }
        withExtendedLifetime(made) {}
        return bytes
    }

    /// Writes DIR/envelope/ and DIR/restore/, and the unarchiver harness's DIR/unarchiver/.
    static func write(to directory: String) throws {
        let envelopeDir = directory + "/envelope", restoreDir = directory + "/restore"
        for dir in [directory, envelopeDir, restoreDir] { try Files.makeDirectory(dir) }
        var count = 0
        for variant in variants {
            let plain = try archive(variant, envelope: PlainEnvelope())
            let sealed = try archive(variant, envelope: EnvelopeHarness.sealer)
            let unencrypted = try archive(variant, envelope: EnvelopeHarness.unencrypted)
            let chunked = try EnvelopeHarness.chunkedSealer.seal(plain)
            try Files.write("\(envelopeDir)/sealed-\(variant.name)", [0] + sealed)
            try Files.write("\(envelopeDir)/sealed-chunked-\(variant.name)", [0] + chunked)
            try Files.write("\(envelopeDir)/sealed-v1-\(variant.name)", [0] + (try sealedVersion1(plain)))
            try Files.write("\(envelopeDir)/plain-\(variant.name)", [1] + plain)
            try Files.write("\(envelopeDir)/unencrypted-\(variant.name)", [2] + unencrypted)
            try Files.write("\(restoreDir)/plain-\(variant.name)", [0] + plain)
            try Files.write("\(restoreDir)/sealed-\(variant.name)", [1] + sealed)
            try Files.write("\(restoreDir)/sealed-v1-\(variant.name)", [1] + (try sealedVersion1(plain)))
            count += 8
        }
        // A few damaged ones: a truncated envelope, a wrong key, an empty archive.
        let sealed = try archive(variants[0], envelope: EnvelopeHarness.sealer)
        let wrongKey = SealedEnvelope(keyProvider: try FixedKeyProvider(key: [UInt8](repeating: 9, count: 32)), bundleVersion: "fuzz 1")
        let other = try archive(variants[0], envelope: wrongKey)
        // Multi-chunk ones (64-byte chunks after a 58-byte header): cut at a chunk boundary,
        // and the first two chunks swapped.
        let chunked = try EnvelopeHarness.chunkedSealer.seal(try archive(variants[0], envelope: PlainEnvelope()))
        let header = 58, stride = 80
        let cut = Array(chunked.prefix(header + 2 * stride))
        let swapped = Array(chunked[..<header]) + chunked[header + stride ..< header + 2 * stride]
            + chunked[header ..< header + stride] + chunked[(header + 2 * stride)...]
        let damaged = [("truncated", Array(sealed.prefix(sealed.count / 2))), ("wrong-key", other),
                       ("header-only", Array(sealed.prefix(20))), ("chunked-cut-at-boundary", cut),
                       ("chunked-swapped", swapped)]
        for (name, bytes) in damaged {
            try Files.write("\(envelopeDir)/damaged-\(name)", [0] + bytes)
            try Files.write("\(restoreDir)/damaged-\(name)", [1] + bytes)
            count += 2
        }
        try Files.write("\(restoreDir)/empty-plain", [0])
        count += 1
        let unarchiverCount = try UnarchiverSeeds.write(to: directory)
        print("wrote \(count) seeds into \(envelopeDir) and \(restoreDir), \(unarchiverCount) into \(directory)/unarchiver")
    }

    /// A version 1 envelope under the harnesses' key, as earlier releases sealed them: one
    /// AES-256-GCM seal of the whole archive (SealedEnvelope.swift has the layout).
    static func sealedVersion1(_ archive: [UInt8]) throws -> [UInt8] {
        let salt = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        let nonce = AES.GCM.Nonce()
        let version = Array("fuzz 1".utf8)
        var out = Array("AMBERENV".utf8) + [1, 1, 0, UInt8(version.count)] + version + salt
        out += Array(nonce)
        let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: EnvelopeHarness.key), salt: salt,
                                         info: Array("amber archive key v1".utf8), outputByteCount: 32)
        let box = try AES.GCM.seal(archive, using: key, nonce: nonce, authenticating: out)
        return out + Array(box.ciphertext) + Array(box.tag)
    }
}
