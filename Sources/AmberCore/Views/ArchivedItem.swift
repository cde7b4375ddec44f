/// An item of a table or collection as archived (SPEC R18): the identifier of the model object
/// it showed, when the view's data source has a `ModelAssociation` that gave one, else its
/// index path as it was.
public enum ArchivedItem: Equatable, Sendable {
    case modelIdentifier(String)
    case indexPath([Int])
}
