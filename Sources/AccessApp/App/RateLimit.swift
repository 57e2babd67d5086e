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
    /// A limit the server named only in words (a 429 with no `limit`): its message's first sentence, which the
    /// banner says before the countdown ("Too many codes requested. Try again in 0:42") rather than a bare
    /// "Too many attempts" (issue 46 item 5). nil when the limit is named, or the words name none.
    public var serverWords: String?

    /// `message`: the 429's own words, kept only when it names no limit.
    public init(target: String? = nil, until: Date, kind: RateLimitKind? = nil, message: String? = nil) {
        self.target = target
        self.until = until
        self.kind = kind
        serverWords = kind == nil ? message.flatMap(Self.limitNamed) : nil
    }

    /// The sentence of a 429's message that names the limit: its first, unless that only says to wait.
    static func limitNamed(in message: String) -> String? {
        let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
        let end = trimmed.range(of: ". ")?.lowerBound ?? trimmed.endIndex
        var first = String(trimmed[..<end]).trimmingCharacters(in: .whitespaces)
        if first.hasSuffix(".") { first.removeLast() }
        let lowered = first.lowercased()
        // A 429 with no body has the client's words for its status ("… (HTTP 429)"), which name nothing.
        guard !first.isEmpty, !["try again", "wait", "later", "(http "].contains(where: lowered.contains)
        else { return nil }
        return first + "."
    }

    /// The server's wait between two sends to one address: the backend's own constant.
    public static let sendCooldown = SendLimits.cooldown

    public func applies(to target: String?, at now: Date) -> Bool {
        self.target == target && now < until
    }

    /// The countdown banner while the limit is on.
    public func banner(for target: String? = nil, at now: Date) -> Banner? {
        applies(to: target, at: now) ? .rateLimited(until: until, wait: wait) : nil
    }

    /// This limit's words before its countdown: the named limit's, else the server's own, else "Too many
    /// attempts".
    public var wait: Banner.Wait {
        guard kind == nil, let serverWords else { return Self.wait(kind) }
        return Banner.Wait(lead: "\(serverWords) Try again in")
    }

    /// What the wait is, in the banner's words (issue 28 item 1): the gap between sends says when the next
    /// send is possible, as seed 001's "Resend in 0:27" does; a limit reached says which it is (issue 46 item 5),
    /// and only a 429 that names none says "Too many attempts". The words are the catalogue's.
    public static func wait(_ kind: RateLimitKind?) -> Banner.Wait {
        switch kind {
        case .cooldown:
            let lead = OnScreenMessage.waitCooldown.text
            return Banner.Wait(lead: lead, shortLead: lead, isLimit: false)
        case let kind?: return Banner.Wait(lead: message(kind).text)
        case nil: return Banner.Wait(lead: OnScreenMessage.waitUnnamed.text)
        }
    }

    /// The catalogue's lead for each limit a 429 names.
    static func message(_ kind: RateLimitKind) -> OnScreenMessage {
        switch kind {
        case .cooldown: .waitCooldown
        case .dailyCap: .waitDailyCap
        case .clientAddressHourly: .waitClientAddressHourly
        case .accountHourly: .waitAccountHourly
        case .globalHourly: .waitGlobalHourly
        case .passwordAttempts: .waitPasswordAttempts
        case .twoFactorAttempts: .waitTwoFactorAttempts
        // The resends allowed in the window are used up: a limit of its own, not the gap between two sends.
        case .resendWindow: .waitResendWindow
        // Seed 003's words for its progressive lockout.
        case .loginLockout: .waitLoginLockout
        }
    }

    /// A whole-screen lockout's end (a 429's wait on a password screen) while it lasts; nil once the clock
    /// has passed it, which is how a screen's tick clears it.
    static func lasting(_ until: Date?, at now: Date) -> Date? {
        guard let until, now < until else { return nil }
        return until
    }

    /// The countdown banner of a whole-screen lockout, while it lasts, in the words of the limit it is.
    static func banner(until: Date?, kind: RateLimitKind?, at now: Date) -> Banner? {
        lasting(until, at: now).flatMap { RateLimit(until: $0, kind: kind).banner(at: now) }
    }
}

extension Canvas {
    /// "Too many incorrect attempts. Try again in 0:42" (the limit's words) in place of the screen's button while
    /// a lockout lasts; false, with nothing drawn, once it is over.
    mutating func lockoutCountdown(until: Date?, kind: RateLimitKind?, at now: Date) -> Bool {
        guard let until = RateLimit.lasting(until, at: now) else { return false }
        let left = Banner.secondsLeft(until: until, now: now)
        centered("\(RateLimit.wait(kind).lead) \(TextLayout.countdown(seconds: left))", style: .muted)
        return true
    }
}
