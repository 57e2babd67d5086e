import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// The six boxes every code screen shares: a texted or emailed code (`EnterCodeScreen`, whatever its flow),
/// the authenticator app's (`AuthenticatorCodeScreen`) and set-up's first code (`TwoFactorSetupScreen`).
/// Typing and pasting (a short paste says what it did), a full code sending itself, a wrong code kept in
/// view with the attempts left (the next digit starts a new one), and a lock: a 429's wait, or the wrong
/// code that started one, closes the boxes with a countdown banner until it passes. Every answer a screen
/// gets goes through `refused(_:now:lockedText:)` first, so a lock starts its countdown on every code screen
/// alike. Each screen keeps what is its own: the call a full code makes, where the right one leads, the words
/// around the boxes, and what a spent or expired code means there.
public struct CodeEntry: Equatable, Sendable {
    /// What the last answer said of the code.
    public enum Refusal: Equatable, Sendable {
        case incorrect(attemptsRemaining: Int)
        /// Anything else, in words.
        case message(String)
    }

    public var otp: OTPInput
    /// A code is being checked (or the screen's other call runs): the boxes take nothing.
    public var isWorking: Bool
    public var refusal: Refusal?
    /// The boxes are closed until then; its banner counts the wait down in the limit's words.
    public var lock: RateLimit?
    /// What the last paste did when it was not a whole code ("Pasted 4 digits. Type the other 2.").
    public var pasteHint: String?

    public init(digits: String = "", refusal: Refusal? = nil, isWorking: Bool = false, lock: RateLimit? = nil) {
        otp = OTPInput(digits: digits)
        self.refusal = refusal
        self.isWorking = isWorking
        self.lock = lock
    }

    /// Seed 001's words for a wrong code.
    static let incorrectText = OnScreenMessage.codeIncorrect.text

    /// How many attempts are left, in words.
    static func attemptsLeft(_ remaining: Int) -> String {
        "\(remaining) \(remaining == 1 ? "attempt" : "attempts") left"
    }

    func isLocked(at now: Date) -> Bool { lock.map { now < $0.until } ?? false }

    /// Six digits are in and may be sent (again, after a wrong code is edited or not). `closed`: the screen's
    /// own reason the boxes take nothing now (an expired code).
    func canSend(closed: Bool = false, at now: Date) -> Bool {
        !isWorking && !closed && !isLocked(at: now) && otp.isComplete
    }

    var refusalText: String? {
        switch refusal {
        case .incorrect: Self.incorrectText
        case .message(let text): text
        case nil: nil
        }
    }

    /// What typing into the boxes did.
    enum Typed: Equatable { case done, full }

    /// Typing and pasting the digits; nil when the event is not for the boxes (the app's keys). While they
    /// take nothing (a check under way, a lock, `closed`), typing goes nowhere. `.full`: a whole code is in,
    /// send it.
    mutating func type(_ event: InputEvent, closed: Bool = false, at now: Date) -> Typed? {
        guard !isWorking, !closed, !isLocked(at: now) else { return event.isTextEditing ? .done : nil }
        let edit = otp.edit(event)
        if case .ignored = edit { return event.isTextEditing ? .done : nil }
        if case .pasted(let result) = edit { pasteHint = result.hint } else { pasteHint = nil }
        guard edit.changedCode else { return .done }
        refusal = nil
        return otp.isComplete ? .full : .done
    }

    /// A code is being sent: nothing said of the last one stays.
    mutating func sending() {
        isWorking = true
        refusal = nil
    }

    /// The backend's refusal of a code, as the boxes show it: a wrong code stays in view with the attempts
    /// left; a 429 that names no wait says the server's words; a wait (a 429's, or a wrong code's that started
    /// a lock) closes the boxes until it passes, `lockedText` under them. What is the screen's to say (a
    /// spent or expired code, anything else) comes back.
    mutating func refused(_ failure: APIError, now: Date, lockedText: String? = nil) -> APIError? {
        isWorking = false
        switch failure {
        case .codeIncorrect(let remaining, _) where remaining > 0:
            refusal = .incorrect(attemptsRemaining: remaining)
            // The wrong code stays in view until the next digit starts a new one (seed 000).
            otp.startsOver = true
        case .rateLimited(let retryAfter?, let message, let kind):
            lock = RateLimit(until: now + TimeInterval(retryAfter), kind: kind, message: message)
            refusal = lockedText.map(Refusal.message)
            otp.startsOver = true
        case .rateLimited(nil, let message, _):
            refusal = .message(message)
        default:
            return failure
        }
        return nil
    }

    /// The clock moved: a lock that has passed opens the boxes, empty.
    mutating func tick(at now: Date) {
        guard let lock, now >= lock.until else { return }
        self.lock = nil
        refusal = nil
        otp.clear()
    }

    /// The lock's countdown, while it lasts.
    func banner(at now: Date) -> Banner? { lock?.banner(at: now) }

    /// The boxes, then what the last paste or answer said under them. `closedText`: the screen's own reason
    /// the boxes take nothing now (an expired code), said in them in place of the last answer.
    func draw(into canvas: inout Canvas, _ context: ScreenContext, closedText: String? = nil) {
        let closed = closedText != nil || isLocked(at: context.now)
        var boxes = otp
        boxes.isDisabled = closed
        boxes.isFocused = !isWorking && !closed
        boxes.error = closedText ?? refusalText
        canvas.draw(height: boxes.height, isFocused: boxes.isFocused) { grid, rect in
            boxes.render(into: &grid, in: rect, glyphs: context.glyphs)
        }
        guard closedText == nil else { return }
        if let pasteHint { canvas.centered(pasteHint, style: .muted) }
        if case .incorrect(let remaining) = refusal, remaining > 0 {
            canvas.centered(Self.attemptsLeft(remaining), style: .muted)
        }
    }
}
