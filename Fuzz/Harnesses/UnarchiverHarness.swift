// Harness `unarchiver`: arbitrary bytes through the C API's unarchiver of application data
// (amber/archive.h; SPEC R12, R22, R25, R26), called exactly as a C host calls it.
//
// A coding registry of three classes registered with C function pointers (@convention(c)
// closures), as a C host registers them:
//   Node    make reads a value of every type under every key of `valueKeys` (the first
//           `sweptObjects` objects of an input; later ones their own fields), then a nested
//           object (`next`, only Nodes allowed); its decode callback, once the node is made,
//           an array of objects (`children`, any class) and a reference back (`parent`), where
//           cycles resolve;
//   Leaf    a registered subclass of Node that reads values only;
//   Sealed  archivable but without make: decoding one must be refused.
// The input is opened with amber_unarchiver_new; its top level is read the same way, plus the
// object `root` and the array `items` with and without allowed classes; then it is freed.
// Oracles besides "nothing traps" (the sanitizers watch every borrowed string and byte read):
// every status is an amber_status, a failure has a non-empty message (amber_error_last) and
// amber_error_last_code() is the status returned; a found bool is 0 or 1, a found date finite.

import CAmber

#if canImport(Glibc)
import Glibc
#endif

enum UnarchiverHarness {
    /// The keys every object (and the top level) is read under, each as every type.
    static let valueKeys = ["name", "value", "flag", "weight", "when", "data", "next", "children", "$class"]
    /// Every type amber_unarchiver_decode_values is asked for: the six an archive holds, and two
    /// it refuses (an index path is a coder's type; ANY is a user info's).
    static let valueTypes: [amber_value_type] = [
        AMBER_VALUE_BOOL, AMBER_VALUE_INT64, AMBER_VALUE_DOUBLE, AMBER_VALUE_STRING, AMBER_VALUE_BYTES,
        AMBER_VALUE_DATE, AMBER_VALUE_INDEX_PATH, AMBER_VALUE_ANY,
    ]

    /// How many objects of an input have every key read as every type (the top level always does).
    static let sweptObjects = 8

    /// The registry of the three classes (made once; the harness never frees it).
    nonisolated(unsafe) static let registry: OpaquePointer = makeRegistry()

    static func run(_ input: [UInt8]) {
        var unarchiver: OpaquePointer?
        let opened = input.withUnsafeBytes { amber_unarchiver_new(&unarchiver, registry, $0.baseAddress, $0.count) }
        check(opened, "amber_unarchiver_new")
        guard opened == 0 else { return }
        guard let unarchiver else { fatalError("amber_unarchiver_new gave AMBER_OK and no unarchiver") }
        defer {
            amber_unarchiver_free(unarchiver)
            HostObjects.releaseAll()
        }
        readValues(unarchiver)
        for classes in [[], ["Node"], ["Leaf"], ["Sealed"], ["Unregistered"]] {
            _ = decodeObject(unarchiver, "root", classes)
            _ = decodeObjectArray(unarchiver, "items", classes)
        }
        if Harnesses.verbose {
            print("\(HostObjects.count) objects made: " + HostObjects.made.map { "\($0.className) \"\($0.name)\"" }.joined(separator: ", "))
        }
    }

    // MARK: Reading, as a host does

    /// Reads every key as every type, one at a time, then all types of a key in one call (where
    /// the first value at fault stops the call).
    static func readValues(_ unarchiver: OpaquePointer) {
        for key in valueKeys {
            key.withCString { k in
                let contains = amber_unarchiver_contains(unarchiver, k)
                guard contains == 0 || contains == 1 else { fatalError("amber_unarchiver_contains gave \(contains)") }
                var all = valueTypes.map { keyedValue(k, $0) }
                for i in all.indices {
                    let status = amber_unarchiver_decode_values(&all[i], 1, unarchiver)
                    check(status, "amber_unarchiver_decode_values(\(key), type \(all[i].type.rawValue))")
                    if status == 0 { inspect(all[i], key) }
                }
                var batch = valueTypes.map { keyedValue(k, $0) }
                check(amber_unarchiver_decode_values(&batch, batch.count, unarchiver), "amber_unarchiver_decode_values(\(key), all types)")
                for value in batch where value.found == 1 { inspect(value, key) }
            }
        }
    }

    /// Decodes the object under `key`, allowing `classes` (none: every registered class).
    /// Returns the status (a callback passes it up).
    static func decodeObject(_ unarchiver: OpaquePointer?, _ key: String, _ classes: [String]) -> CInt {
        var object: UnsafeMutableRawPointer?
        let status = withCStrings(classes) { names in
            amber_unarchiver_decode_object(&object, unarchiver, key, names.baseAddress, names.count)
        }
        check(status, "amber_unarchiver_decode_object(\(key), \(classes))")
        if status == 0, let object { HostObjects.verify(object) }
        return status
    }

    /// Decodes the array under `key` as a host does: its length first, then the objects.
    static func decodeObjectArray(_ unarchiver: OpaquePointer?, _ key: String, _ classes: [String]) -> CInt {
        withCStrings(classes) { names in
            var length = 0
            var status = amber_unarchiver_decode_object_array(nil, 0, &length, unarchiver, key, names.baseAddress, names.count)
            check(status, "amber_unarchiver_decode_object_array(\(key), \(classes), capacity 0)")
            guard status == 0 else { return status }
            var objects = [UnsafeMutableRawPointer?](repeating: nil, count: length)
            var again = 0
            status = amber_unarchiver_decode_object_array(&objects, length, &again, unarchiver, key, names.baseAddress, names.count)
            check(status, "amber_unarchiver_decode_object_array(\(key), \(classes), capacity \(length))")
            guard status == 0 else { return status }
            guard again == length else { fatalError("the array under \(key) had \(length) objects, then \(again)") }
            for object in objects {
                guard let object else { fatalError("the array under \(key) gave NULL (arrays holding nil are refused)") }
                HostObjects.verify(object)
            }
            return status
        }
    }

    /// A value to read: `key` and `type` set, the rest zero.
    static func keyedValue(_ key: UnsafePointer<CChar>, _ type: amber_value_type) -> amber_keyed_value {
        var value = amber_keyed_value()
        value.key = key
        value.type = type
        return value
    }

    /// Touches what a found value borrows (the sanitizer checks each read) and checks R22's
    /// promises about it.
    static func inspect(_ value: amber_keyed_value, _ key: String) {
        guard value.found == 1 || value.found == 0 else { fatalError("\(key): found is \(value.found)") }
        guard value.found == 1 else { return }
        switch value.type {
        case AMBER_VALUE_BOOL:
            guard value.int64_value == 0 || value.int64_value == 1 else { fatalError("\(key): a bool read as \(value.int64_value)") }
        case AMBER_VALUE_DATE:
            guard value.double_value.isFinite else { fatalError("\(key): a date read as \(value.double_value)") }
        case AMBER_VALUE_STRING:
            guard let string = value.string_value else { fatalError("\(key): a string found as NULL") }
            _ = strlen(string)
        case AMBER_VALUE_BYTES:
            guard value.bytes_size == 0 || value.bytes_value != nil else { fatalError("\(key): \(value.bytes_size) bytes at NULL") }
            if let bytes = value.bytes_value {
                _ = UnsafeRawBufferPointer(start: bytes, count: value.bytes_size).reduce(0 as UInt8, &+)
            }
        default:
            break
        }
    }

    /// The oracle of every call: a known status, and a failure that says why.
    static func check(_ status: CInt, _ call: @autoclosure () -> String) {
        guard status >= 0, status <= CInt(AMBER_CALLBACK_FAILED.rawValue) else {
            fatalError("\(call()) gave \(status), not an amber_status")
        }
        guard status != 0 else { return }
        guard let message = amber_error_last() else { fatalError("\(call()) gave \(status) and a NULL message") }
        if Harnesses.verbose { print("\(call()): \(status) \(String(cString: message))") }
        guard message.pointee != 0 else { fatalError("\(call()) gave \(status) and an empty message") }
        let code = amber_error_last_code()
        guard code == status else {
            fatalError("\(call()) gave \(status) but amber_error_last_code() is \(code): \(String(cString: message))")
        }
    }

    // MARK: The registry

    static func makeRegistry() -> OpaquePointer {
        var registry: OpaquePointer?
        guard amber_coding_registry_new(&registry) == 0, let registry else { fatalError("amber_coding_registry_new failed") }
        register(registry, "Node", nil, encode: CodingCallbacks.encodeNode, make: CodingCallbacks.makeNode, decode: CodingCallbacks.decodeNode)
        register(registry, "Leaf", "Node", encode: CodingCallbacks.encodeNode, make: CodingCallbacks.makeLeaf, decode: nil)
        register(registry, "Sealed", nil, encode: CodingCallbacks.encodeNode, make: nil, decode: nil)
        return registry
    }

    static func register(
        _ registry: OpaquePointer, _ name: String, _ superclass: String?,
        encode: CodingCallbacks.Encode?, make: CodingCallbacks.Make?, decode: CodingCallbacks.Decode?
    ) {
        var cls = amber_coding_class()
        cls.version = UInt32(AMBER_CODING_CLASS_VERSION)
        cls.encode = encode
        cls.make = make
        cls.decode = decode
        let status = amber_coding_registry_register(registry, name, superclass, &cls, nil, nil)
        guard status == 0 else { fatalError("registering \(name): \(String(cString: amber_error_last()))") }
    }
}

/// The host's objects: what make callbacks create. The harness owns them all and releases them
/// after each input; the objects refer to each other by address only, so cycles cost nothing.
final class HostNode {
    let className: String
    var name = ""
    var value: Int64 = 0
    var flag = false
    var weight = 0.0
    var when: Double?
    var data: [UInt8] = []
    var next: UnsafeMutableRawPointer?
    var children: [UnsafeMutableRawPointer] = []
    var parent: UnsafeMutableRawPointer?

    init(_ className: String) { self.className = className }

    var address: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func at(_ address: UnsafeRawPointer) -> HostNode {
        Unmanaged<HostNode>.fromOpaque(address).takeUnretainedValue()
    }
}

enum HostObjects {
    nonisolated(unsafe) static var made: [HostNode] = []
    static var count: Int { made.count }

    static func make(_ className: String) -> HostNode {
        let node = HostNode(className)
        if Harnesses.verbose { print("make \(className) #\(made.count)") }
        made.append(node)
        return node
    }

    /// An address the unarchiver gave back must be one of the objects made for this input.
    static func verify(_ address: UnsafeMutableRawPointer) {
        guard made.contains(where: { $0.address == address }) else {
            fatalError("the unarchiver gave \(address), an object no make callback made")
        }
    }

    static func releaseAll() { made.removeAll(keepingCapacity: true) }
}

/// The coding classes' callbacks, as a C host writes them.
enum CodingCallbacks {
    typealias Encode = @convention(c) (UnsafeRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> CInt
    typealias Make = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, OpaquePointer?, UnsafeMutableRawPointer?) -> CInt
    typealias Decode = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> CInt

    /// Node's make: every value, then `next` (Nodes only).
    static let makeNode: Make = { out, unarchiver, _ in
        let node = HostObjects.make("Node")
        read(node, unarchiver)
        out?.pointee = node.address
        var next: UnsafeMutableRawPointer?
        let status = withCStrings(["Node"]) { names in
            amber_unarchiver_decode_object(&next, unarchiver, "next", names.baseAddress, names.count)
        }
        UnarchiverHarness.check(status, "amber_unarchiver_decode_object(next) in make")
        if status != 0, status != CInt(AMBER_NOT_FOUND.rawValue) { return status }
        node.next = next
        return 0
    }

    /// Leaf's make: values only.
    static let makeLeaf: Make = { out, unarchiver, _ in
        let node = HostObjects.make("Leaf")
        read(node, unarchiver)
        out?.pointee = node.address
        return 0
    }

    /// Node's decode, once the node is made: `children` (any class), whose own decode reads
    /// `parent`, a reference back to the node (the cycle the header's documentation allows),
    /// and its own `parent`.
    static let decodeNode: Decode = { object, unarchiver, _ in
        guard let object else { fatalError("decode was given NULL") }
        HostObjects.verify(object)
        var status = UnarchiverHarness.decodeObjectArray(unarchiver, "children", [])
        if status != 0, status != CInt(AMBER_NOT_FOUND.rawValue) { return status }
        var parent: UnsafeMutableRawPointer?
        status = amber_unarchiver_decode_object(&parent, unarchiver, "parent", nil, 0)
        UnarchiverHarness.check(status, "amber_unarchiver_decode_object(parent) in decode")
        if status == CInt(AMBER_NOT_FOUND.rawValue) { return 0 }
        if status == 0 { HostNode.at(object).parent = parent }
        return status
    }

    /// Reads the object's values as every type (UnarchiverHarness.readValues) and keeps those
    /// of its own fields' types.
    static func read(_ node: HostNode, _ unarchiver: OpaquePointer?) {
        guard let unarchiver else { fatalError("make was given a NULL unarchiver") }
        // Every key as every type for the first objects of an input; each later one reads its
        // own fields, as a host does, so that an input of many objects stays fast.
        if HostObjects.count <= UnarchiverHarness.sweptObjects { UnarchiverHarness.readValues(unarchiver) }
        let fields: [(String, amber_value_type)] = [
            ("name", AMBER_VALUE_STRING), ("value", AMBER_VALUE_INT64), ("flag", AMBER_VALUE_BOOL),
            ("weight", AMBER_VALUE_DOUBLE), ("when", AMBER_VALUE_DATE), ("data", AMBER_VALUE_BYTES),
        ]
        // The keys must outlive the call: a String passed as a pointer lives only while the
        // call it is passed to runs.
        withCStrings(fields.map(\.0)) { keys in
            var values = zip(keys, fields).map { UnarchiverHarness.keyedValue($0!, $1.1) }
            let status = amber_unarchiver_decode_values(&values, values.count, unarchiver)
            UnarchiverHarness.check(status, "amber_unarchiver_decode_values(fields)")
            for value in values { UnarchiverHarness.inspect(value, "field") }
            if values[0].found == 1, let s = values[0].string_value { node.name = String(cString: s) }
            if values[1].found == 1 { node.value = values[1].int64_value }
            if values[2].found == 1 { node.flag = values[2].int64_value != 0 }
            if values[3].found == 1 { node.weight = values[3].double_value }
            if values[4].found == 1 { node.when = values[4].double_value }
            if values[5].found == 1, let bytes = values[5].bytes_value {
                node.data = Array(UnsafeRawBufferPointer(start: bytes, count: values[5].bytes_size))
            }
        }
    }

    /// The encode callback of all three classes (the seeds): a node's fields, its `next`, its
    /// `children` (of the first child's class) and its `parent`.
    static let encodeNode: Encode = { object, archiver, _ in
        guard let object else { fatalError("encode was given NULL") }
        let node = HostNode.at(object)
        var status = encodeFields(node, archiver)
        if status == 0, let next = node.next {
            status = amber_archiver_encode_object(archiver, "next", HostNode.at(next).className, next)
        }
        if status == 0, let first = node.children.first {
            let children = node.children.map { UnsafeRawPointer($0) as UnsafeRawPointer? }
            status = amber_archiver_encode_object_array(archiver, "children", HostNode.at(first).className, children, children.count)
        }
        if status == 0, let parent = node.parent {
            status = amber_archiver_encode_object(archiver, "parent", HostNode.at(parent).className, parent)
        }
        return status
    }

    static func encodeFields(_ node: HostNode, _ archiver: OpaquePointer?) -> CInt {
        withCStrings(["name", "value", "flag", "weight", "when", "data", node.name]) { s in
            node.data.withUnsafeBytes { data in
                var values = [amber_keyed_value](repeating: amber_keyed_value(), count: node.when == nil ? 5 : 6)
                values[0].key = s[0]; values[0].type = AMBER_VALUE_STRING; values[0].string_value = s[6]
                values[1].key = s[1]; values[1].type = AMBER_VALUE_INT64; values[1].int64_value = node.value
                values[2].key = s[2]; values[2].type = AMBER_VALUE_BOOL; values[2].int64_value = node.flag ? 1 : 0
                values[3].key = s[3]; values[3].type = AMBER_VALUE_DOUBLE; values[3].double_value = node.weight
                values[4].key = s[5]; values[4].type = AMBER_VALUE_BYTES
                values[4].bytes_value = data.baseAddress; values[4].bytes_size = data.count
                if let when = node.when {
                    values[5].key = s[4]; values[5].type = AMBER_VALUE_DATE; values[5].double_value = when
                }
                return amber_archiver_encode_values(archiver, values, values.count)
            }
        }
    }
}

/// Calls `body` with `strings` as an array of C strings, valid during the call.
func withCStrings<R>(_ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { UnsafePointer(strdup($0)) }
    defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
    return copies.withUnsafeBufferPointer(body)
}
