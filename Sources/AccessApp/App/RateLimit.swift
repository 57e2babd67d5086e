import Foundation
import TerminalKit

/// A limit the server put on one target (a phone number, an address): until then, sending to
/// that target is off and the screen shows the countdown.
public struct RateLimit: Equatable, Sendable {
    /// What the limit is on; nil when it is on the whole screen's action.
    public var target: String?
    public var until: Date

    public init(target: String? = nil, until: Date) {
        self.target = target
        self.until = until
    }

    public func applies(to target: String?, at now: Date) -> Bool {
        self.target == target && now < until
    }

    /// The countdown banner while the limit is on.
    public func banner(for target: String? = nil, at now: Date) -> Banner? {
        applies(to: target, at: now) ? .rateLimited(until: until) : nil
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
        centered("Too many attempts. Try again in \(TextLayout.countdown(seconds: left))", style: .muted)
        return true
    }
}
