/// The launch guard's counts (SPEC R14, R15): how many launches in a row started restoring
/// and did not complete, or one of two marks above any such count.
enum LaunchGuard {
    /// Restoration returned extended (SPEC R15) and has not completed: if the process dies
    /// first, the next launch discards the archive.
    static let extended = 100
    /// The host discarded the archive (`Engine.discardArchive()`): a launch with no archive
    /// reports `discardedByHost`. A later save makes the mark meaningless (a launch with an
    /// archive ignores it).
    static let discardedByHost = 200
    /// A launch consumed the archive (restored it, or refused it) but could not remove it: the
    /// next launch discards it rather than restore it again (SPEC R14). A save clears the mark.
    static let consumed = 300
}
