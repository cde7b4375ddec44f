/// The directories of an application's own files (SPEC R27), the analogue of the sandbox's
/// Documents, Library/Caches, Library/Preferences and tmp.
public enum AppDirectory: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// The user's data, kept until the application deletes it (the item store).
    case documents = 0
    /// Data that can be made again (downloads, thumbnails); the system may clear it.
    case caches = 1
    /// Settings (NSUserDefaults' files).
    case preferences = 2
    /// Scratch files, gone at the latest when the user's session ends.
    case temporary = 3

    /// "documents", "caches", "preferences", "temporary".
    public var description: String {
        switch self {
        case .documents: "documents"
        case .caches: "caches"
        case .preferences: "preferences"
        case .temporary: "temporary"
        }
    }
}

/// Resolves and creates the directories of one application on the XDG Base Directory
/// conventions (SPEC R27):
///
/// | directory   | path                                                                   |
/// |-------------|------------------------------------------------------------------------|
/// | documents   | `$XDG_DATA_HOME/<app-id>`, else `$HOME/.local/share/<app-id>`          |
/// | caches      | `$XDG_CACHE_HOME/<app-id>`, else `$HOME/.cache/<app-id>`               |
/// | preferences | `$XDG_CONFIG_HOME/<app-id>`, else `$HOME/.config/<app-id>`             |
/// | temporary   | `$XDG_RUNTIME_DIR/<app-id>`, else `$TMPDIR/<app-id>-<uid>`, else `/tmp/<app-id>-<uid>` |
///
/// (The restoration archive lives apart, in `$XDG_STATE_HOME/<app-id>`: `FileStore`.)
///
/// - An environment variable counts only when it holds an absolute path (the XDG rule: a
///   relative one is ignored); `HOME` falls back on the password database.
/// - `directory(_:)` creates what is missing with mode 0700 (owner only). An existing
///   directory is used as it is, except the temporary one outside `XDG_RUNTIME_DIR`: it sits
///   in a directory every user can write to, so it must be a real directory (not a symbolic
///   link), owned by the user, with no permission for group or others — else `.io`.
/// - The application id must be a single file name: not empty, not `.` or `..`, without `/`
///   or NUL, at most 255 bytes. Nothing can escape the base directories.
public struct AppDirectories {
    /// The application's id, the last component of each path.
    public let appID: String
    /// Reads an environment variable (the process's, or a test's).
    let environment: (String) -> String?

    /// The directories of `appID`, from the process's environment.
    /// - Throws: `.invalidArgument` for an unusable id (`validate(appID:)`).
    public init(appID: String) throws(AmberError) {
        try self.init(appID: appID, environment: FileSystem.environment)
    }

    /// The directories of `appID`, reading variables with `environment`.
    public init(appID: String, environment: @escaping (String) -> String?) throws(AmberError) {
        try Self.validate(appID: appID)
        self.appID = appID
        self.environment = environment
    }

    /// Checks that an application id is one file name that cannot escape a directory.
    /// - Throws: `.invalidArgument` naming what is wrong.
    public static func validate(appID: String) throws(AmberError) {
        let why: String?
        if appID.isEmpty { why = "it is empty" }
        else if appID == "." || appID == ".." { why = "it names a directory itself" }
        else if appID.contains("/") { why = "it contains '/'" }
        else if appID.utf8.contains(0) { why = "it contains NUL" }
        else if appID.utf8.count > 255 { why = "it is longer than 255 bytes" }
        else { why = nil }
        if let why {
            throw AmberError(.invalidArgument, "'\(appID)' is not a usable application id: \(why); it must be one file name")
        }
    }

    /// An absolute path from a variable, or nil.
    private func absolute(_ name: String) -> String? {
        guard let value = environment(name), value.hasPrefix("/") else { return nil }
        var v = value
        while v.count > 1, v.hasSuffix("/") { v.removeLast() }
        return v
    }

    private func home(_ variable: String, _ fallback: String) throws(AmberError) -> String {
        if let base = absolute(variable) { return base == "/" ? "" : base }
        if let h = absolute("HOME") { return (h == "/" ? "" : h) + "/" + fallback }
        if let h = FileSystem.passwordHomeDirectory(), h.hasPrefix("/") { return (h == "/" ? "" : h) + "/" + fallback }
        throw AmberError(.notFound, "neither \(variable) nor a home directory is set")
    }

    /// The path of a directory, without creating it.
    /// - Throws: `.notFound` when neither the variable nor a home directory is set.
    public func path(for which: AppDirectory) throws(AmberError) -> String {
        switch which {
        case .documents: return try home("XDG_DATA_HOME", ".local/share") + "/" + appID
        case .caches: return try home("XDG_CACHE_HOME", ".cache") + "/" + appID
        case .preferences: return try home("XDG_CONFIG_HOME", ".config") + "/" + appID
        case .temporary:
            if let runtime = absolute("XDG_RUNTIME_DIR") { return (runtime == "/" ? "" : runtime) + "/" + appID }
            let base = absolute("TMPDIR") ?? "/tmp"
            return (base == "/" ? "" : base) + "/" + appID + "-" + String(FileSystem.userID())
        }
    }

    /// Whether the temporary directory lies in a shared location (not under XDG_RUNTIME_DIR).
    private var temporaryIsShared: Bool { absolute("XDG_RUNTIME_DIR") == nil }

    /// The path of a directory, created (mode 0700, with any missing parent) if missing.
    /// - Throws: `.notFound` (no variable, no home); `.io` when it cannot be created, is not a
    ///   directory, or (the shared temporary directory) is not the user's own private directory.
    ///
    /// Backs `amber_app_directory`.
    @discardableResult
    public func directory(_ which: AppDirectory) throws(AmberError) -> String {
        let path = try path(for: which)
        try FileSystem.makeDirectories(path, mode: 0o700)
        guard FileSystem.isDirectory(path) else {
            throw AmberError(.io, "the \(which) directory '\(path)' is not a directory")
        }
        if which == .temporary, temporaryIsShared {
            guard let s = FileSystem.linkStatus(path), s.isDirectory, !s.isSymbolicLink else {
                throw AmberError(.io, "the temporary directory '\(path)' is a symbolic link or not a directory; refusing to use it")
            }
            guard s.owner == FileSystem.userID() else {
                throw AmberError(.io, "the temporary directory '\(path)' belongs to user \(s.owner), not to this user (\(FileSystem.userID())); refusing to use it")
            }
            guard s.mode & 0o077 == 0 else {
                throw AmberError(.io, "the temporary directory '\(path)' has mode \(String(s.mode, radix: 8)): others may use it; refusing to use it")
            }
        }
        return path
    }
}
