/// A notification (SPEC R24): a name, the sender, and a user info of typed values.
public struct AppNotification: Sendable {
    /// The name observers register for.
    public var name: String
    /// Who posted it, or nil.
    public var sender: NotificationSender?
    /// What the poster wants observers to know.
    public var userInfo: UserInfo

    /// Creates a notification.
    public init(name: String, sender: NotificationSender? = nil, userInfo: UserInfo = UserInfo()) {
        self.name = name
        self.sender = sender
        self.userInfo = userInfo
    }

    // MARK: The engine's notifications (UIKit's UIApplication…Notification)

    /// Posted at the end of the launch sequence, after did-finish-launching.
    public static let didFinishLaunching = "AmberApplicationDidFinishLaunchingNotification"
    /// Posted when the application is about to go from active to inactive (an incoming call, the
    /// switcher, on its way to the background). This is where a host hides sensitive content:
    /// what is on screen afterwards may be captured as the snapshot.
    public static let willResignActive = "AmberApplicationWillResignActiveNotification"
    /// Posted when the application has become active.
    public static let didBecomeActive = "AmberApplicationDidBecomeActiveNotification"
    /// Posted when the application has entered the background, before the engine preserves
    /// its state; the place to save the host's own data (the item store).
    public static let didEnterBackground = "AmberApplicationDidEnterBackgroundNotification"
    /// Posted when the application is about to leave the background for the foreground.
    public static let willEnterForeground = "AmberApplicationWillEnterForegroundNotification"
    /// Posted when the application is about to terminate from the background.
    public static let willTerminate = "AmberApplicationWillTerminateNotification"
    /// Posted when the host reports that the system is short of memory: release caches.
    public static let didReceiveMemoryWarning = "AmberApplicationDidReceiveMemoryWarningNotification"
}
