/// The data source of a table or collection as UIDataSourceModelAssociation describes it
/// (SPEC R18): with it, the selected items and the first visible item are archived as the
/// identifiers of the model objects they show, and found again by identifier at restoration,
/// so rows that moved are still selected. Set with `RestorableObject.setModelAssociation(_:)`.
public struct ModelAssociation {
    /// The model identifier of the item at an index path now (modelIdentifierForElementAtIndexPath:),
    /// or nil for an item without one: that item is archived as its index path. An error thrown
    /// stops the preservation and is thrown, unchanged, by `Engine.preserve()`; an empty
    /// identifier stops it as `.callbackFailed`.
    public var identifierForIndexPath: (RestorableObject, [Int]) throws -> String?
    /// The index path of the item with a model identifier now (indexPathForElementWithModelIdentifier:),
    /// or nil if no item has it: the identifier is dropped and listed in the report. An error
    /// thrown makes the view's outcome a `decodeError`.
    public var indexPathForIdentifier: (RestorableObject, String) throws -> [Int]?

    /// Creates an association.
    public init(
        identifierForIndexPath: @escaping (RestorableObject, [Int]) throws -> String?,
        indexPathForIdentifier: @escaping (RestorableObject, String) throws -> [Int]?
    ) {
        self.identifierForIndexPath = identifierForIndexPath
        self.indexPathForIdentifier = indexPathForIdentifier
    }
}
