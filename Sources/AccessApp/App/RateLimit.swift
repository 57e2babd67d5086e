import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// A limit the server put on one target (a phone number, an address): until then, sending to
/// that target is off and the screen shows the countdown.
public struct RateLimit: Equatable, Sendable {
    /// What the limit is on; nil when it is on the whole screen's action.
    public var target: String?
    public var until: Date
    /// Which limit the server named (its 429's `limit`); nil when it named none.
    public var kind: RateLimitKind?

    public init(target: String? = nil, until: Date, kind: RateLimitKind? = nil) {
        self.target = target
        self.until = until
        self.kind = kind
    }

    /// The server's wait between two sends to one address: the backend's own constant.
    public static let sendCooldown = SendLimits.cooldown

    public func applies(to target: String?, at now: Date) -> Bool {
        self.target == target && now < until
    }

    /// The countdown banner while the limit is on.
    public func banner(for target: String? = nil, at now: Date) -> Banner? {
        applies(to: target, at: now) ? .rateLimited(until: until, wait: Self.wait(kind)) : nil
    }

    /// What the wait is, in the banner's words (issue 28 item 1): the gap between sends says when the next
    /// send is possible, as seed 001's "Resend in 0:27" does; a limit reached says which it is (issue 46 item 5),
    /// and only a 429 that names none says "Too many attempts".
    public static func wait(_ kind: RateLimitKind?) -> Banner.Wait {
        switch kind {
        case .cooldown: return Banner.Wait(lead: "Resend in", shortLead: "Resend in", isLimit: false)
        case .dailyCap: return Banner.Wait(lead: "Daily limit reached. Try again in")
        case .clientAddressHourly: return Banner.Wait(lead: "Hourly limit for your network reached. Try again in")
        case .accountHourly: return Banner.Wait(lead: "Hourly limit for your account reached. Try again in")
        case .globalHourly: return Banner.Wait(lead: "Hourly limit for this server reached. Try again in")
        case .passwordAttempts: return Banner.Wait(lead: "Too many wrong passwords. Try again in")
        case .twoFactorAttempts: return Banner.Wait(lead: "Too many wrong codes. Try again in")
        // The resends allowed in the window are used up: a limit of its own, not the gap between two sends.
        case .resendWindow: return Banner.Wait(lead: "Resend limit reached. Try again in")
        // Seed 003's words for its progressive lockout.
        case .loginLockout: return Banner.Wait(lead: "Too many incorrect attempts. Try again in")
        case nil: return .limit
        }
    }

    /// A whole-screen lockout's end (a 429's wait on a password screen) while it lasts; nil once the clock
    /// has passed it, which is how a screen's tick clears it.
    static func lasting(_ until: Date?, at now: Date) -> Date? {
        guard let until, now < until else { return nil }
        return until
    }

    /// The countdown banner of a whole-screen lockout, while it lasts.
    static func banner(until: Date?, at now: Date) -> Banner? {
        lasting(until, at: now).flatMap { RateLimit(until: $0).banner(at: now) }
    }
}

extension Canvas {
    /// "Too many attempts. Try again in 0:42" in place of the screen's button while a lockout lasts;
    /// false, with nothing drawn, once it is over.
    mutating func lockoutCountdown(until: Date?, at now: Date) -> Bool {
        guard let until = RateLimit.lasting(until, at: now) else { return false }
        let left = Banner.secondsLeft(until: until, now: now)
        centered("\(Banner.Wait.limit.lead) \(TextLayout.countdown(seconds: left))", style: .muted)
        return true
    }
}
