import Testing
@testable import AmberArchive
