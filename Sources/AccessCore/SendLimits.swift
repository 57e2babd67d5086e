import Foundation

/// How often one address may be sent a code or a link (seeds 000 and 003, settled in docs/RULES.md's
/// `rate_limit.*`): the backend enforces them and the app counts its "Resend in 0:24" from the same
/// numbers, so the two cannot drift apart.
public enum SendLimits {
    /// Between two sends to one address (seed README: resend after 30 s).
    public static let cooldown: TimeInterval = 30
    public static let resendWindow: TimeInterval = 15 * 60
    public static let maxResendsPerWindow = 3
    public static let dailyWindow: TimeInterval = 24 * 60 * 60
    public static let maxCodesPerDay = 5
    /// The caps across destinations (`rate_limit.*_hourly`) look back one hour: the backend enforces them
    /// and `accessdeck conform` holds a backend to them.
    public static let capWindow: TimeInterval = 60 * 60
    /// One client address: a household or an office behind one address signing in, with room to spare.
    public static let maxSendsPerClientAddress = 30
    /// One signed-in account: a phone change with its resends and a re-auth or two, twice over.
    public static let maxSendsPerAccount = 10
    /// The whole server: a bound on what any number of clients together can cost in texts and emails.
    public static let maxSendsPerHour = 300
}
