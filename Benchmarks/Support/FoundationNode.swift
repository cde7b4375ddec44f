// The synthetic tree as a UIKit app would archive it with NSCoding, for the benchmarks that put
// Foundation's NSKeyedArchiver and NSKeyedUnarchiver beside Amber.

import Foundation

/// One node of the synthetic tree, archived by NSKeyedArchiver with its children as an NSArray.
public final class FoundationNode: NSObject, NSCoding {
    public var identifier = "", className = "", itemKey = "", title = ""
    public var selectedIndex = 0, isEditing = false, contentOffsetY = 0.0
    public var children: [FoundationNode] = []

    public override init() {}

    public init(_ values: SyntheticNode) {
        identifier = values.identifier
        className = values.className
        selectedIndex = values.selectedIndex
        isEditing = values.isEditing
        contentOffsetY = values.contentOffsetY
        itemKey = values.itemKey
        title = values.title
    }

    public func encode(with coder: NSCoder) {
        coder.encode(identifier, forKey: "identifier")
        coder.encode(className, forKey: "className")
        coder.encode(selectedIndex, forKey: "selectedIndex")
        coder.encode(isEditing, forKey: "isEditing")
        coder.encode(contentOffsetY, forKey: "contentOffsetY")
        coder.encode(itemKey, forKey: "itemKey")
        coder.encode(title, forKey: "title")
        coder.encode(children, forKey: "children")
    }

    public init?(coder: NSCoder) {
        identifier = coder.decodeObject(forKey: "identifier") as? String ?? ""
        className = coder.decodeObject(forKey: "className") as? String ?? ""
        selectedIndex = coder.decodeInteger(forKey: "selectedIndex")
        isEditing = coder.decodeBool(forKey: "isEditing")
        contentOffsetY = coder.decodeDouble(forKey: "contentOffsetY")
        itemKey = coder.decodeObject(forKey: "itemKey") as? String ?? ""
        title = coder.decodeObject(forKey: "title") as? String ?? ""
        children = coder.decodeObject(forKey: "children") as? [FoundationNode] ?? []
    }

    /// The number of nodes in the subtree of this one, itself included.
    public var count: Int { nodeCount(self) { $0.children } }

    /// The archive of the tree under `root`, as `archivedData(withRootObject:)` writes it.
    @inline(never)
    public static func encode(_ root: FoundationNode) -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        return archiver.encodedData
    }

    /// The tree `encode(_:)` archived, or nil if `data` does not hold one.
    @inline(never)
    public static func decode(_ data: Data) -> FoundationNode? {
        guard let u = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        u.requiresSecureCoding = false
        u.decodingFailurePolicy = .setErrorAndReturn
        let root = u.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? FoundationNode
        u.finishDecoding()
        return root
    }
}
