/// The application delegate's part in preservation and restoration: optional callbacks, each
/// with the default UIKit has when the delegate does not implement the method.
public struct EngineDelegate {
    /// Whether to save state now (SPEC R5); it may write into the application coder. Default
    /// (nil): false, nothing is saved.
    public var shouldSave: ((AppCoder) -> Bool)?
    /// Called at the beginning of preservation, after should-save agreed, with the application
    /// coder (SPEC R8). An error thrown stops the preservation and is thrown by `preserve()`.
    /// Default: nothing.
    public var willEncode: ((AppCoder) throws -> Void)?
    /// Whether to restore the archive, given its application coder and metadata (SPEC R9).
    /// Default (nil): false, the launch is fresh and the archive discarded.
    public var shouldRestore: ((AppDecoder) -> Bool)?
    /// Called last in restoration, after every restored object finished restoring (SPEC R13).
    /// An error thrown is noted in the report. Default: nothing.
    public var didDecode: ((AppDecoder) throws -> Void)?
    /// Provides the object for a controller's path whose record names no restoration class
    /// (SPEC R10 step 2). Default: none, the lookup goes on. An error thrown is noted in the
    /// report, and the lookup goes on as if it gave none. The path is the identifiers; the stack
    /// position of each is in `StateDecoder.restorationComponents` (SPEC R3).
    public var objectForPath: (([String], StateDecoder) throws -> RestorableObject?)?
    /// Called first at launch, before restoration; the host may build its default interface
    /// here (the objects it creates are found by implicit lookup, SPEC R10 step 3).
    public var willFinishLaunching: (() -> Void)?
    /// Called at launch after restoration.
    public var didFinishLaunching: (() -> Void)?

    /// Creates a delegate; every callback defaults to none.
    public init(
        shouldSave: ((AppCoder) -> Bool)? = nil,
        willEncode: ((AppCoder) throws -> Void)? = nil,
        shouldRestore: ((AppDecoder) -> Bool)? = nil,
        didDecode: ((AppDecoder) throws -> Void)? = nil,
        objectForPath: (([String], StateDecoder) throws -> RestorableObject?)? = nil,
        willFinishLaunching: (() -> Void)? = nil,
        didFinishLaunching: (() -> Void)? = nil
    ) {
        self.shouldSave = shouldSave
        self.willEncode = willEncode
        self.shouldRestore = shouldRestore
        self.didDecode = didDecode
        self.objectForPath = objectForPath
        self.willFinishLaunching = willFinishLaunching
        self.didFinishLaunching = didFinishLaunching
    }
}
