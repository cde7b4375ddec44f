// The values of the synthetic UI tree every benchmark measures (amber-bench-archive,
// amber-bench-engine-foundation, and bindings/c/bench/bench_engine.c, which repeats them in C):
// N nodes, 4 children per node filled breadth first, node i's children nodes 4i+1 to 4i+4; each
// node has an identifier "ItemsViewController-<i>", a class name among 8, and the state
// {selectedIndex, isEditing, contentOffsetY, itemKey (unique, 22 characters), title (about 20
// characters)}.

/// The values of node `index` of the synthetic tree.
public struct SyntheticNode {
    public let identifier: String
    public let className: String
    public let selectedIndex: Int
    public let isEditing: Bool
    public let contentOffsetY: Double
    public let itemKey: String
    public let title: String

    public init(index i: Int) {
        identifier = "ItemsViewController-\(i)"
        className = SyntheticNode.classNames[i % 8]
        selectedIndex = i % 37
        isEditing = i % 3 == 0
        contentOffsetY = Double(i) * 44.5
        itemKey = SyntheticNode.itemKey(i)
        title = SyntheticNode.titles[i % 8]
    }

    static let classNames = [
        "ItemsViewController", "DetailViewController", "UINavigationController", "UITableView",
        "UIScrollView", "UITextField", "ImagePickerController", "SettingsViewController",
    ]

    static let titles = [
        "Vintage bicycle bell", "Leather notebook set", "Ceramic coffee mug", "Wireless earbuds v2",
        "Mechanical keyboard", "Hiking boots, size 9", "Cast iron skillet 10", "Noise cancel headset",
    ]

    /// A 22-character key, unique per node (like a base64 UUID); the same as the C program's.
    public static func itemKey(_ i: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var x = UInt64(truncatingIfNeeded: i) &* 0x9E37_79B9_7F4A_7C15 ^ 0xD1B5_4A32_D192_ED03
        var chars: [UInt8] = []
        for k in 0 ..< 22 {
            if k == 11 { x = x &* 0xBF58_476D_1CE4_E5B9 ^ UInt64(i) }
            chars.append(alphabet[Int(x & 63)])
            x = x >> 6 | x << 58
        }
        return String(decoding: chars, as: UTF8.self)
    }
}

/// The number of nodes of the tree under `root`, itself included, without recursion.
public func nodeCount<Node>(_ root: Node, children: (Node) -> [Node]) -> Int {
    var total = 0
    var stack = [root]
    while let node = stack.popLast() {
        total += 1
        stack.append(contentsOf: children(node))
    }
    return total
}
