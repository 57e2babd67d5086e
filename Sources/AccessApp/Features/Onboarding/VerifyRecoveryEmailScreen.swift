import AccessAPI
import Foundation
import TerminalKit

/// Onboarding step 4 (seed 003's "Email Verification (Optional)"): the link went to the recovery
/// email; opened from the outbox, pasted here or handed over by `accessdeck open-link`, it verifies
/// the address and onboarding goes on. Resend after 30 s; "Continue without verifying" leaves the
/// reminder on Settings.
public struct VerifyRecoveryEmailScreen: ScreenModel {
    public enum Work: Equatable, Sendable {
        case resending
        case continuing
        /// The link was confirmed: asking where onboarding stands now.
        case loadingProfile
    }

    public var email: String
    /// Resend waits until then (30 s after a send, or the server's 429); nil: it may be sent now.
    public var resendAfter: Date?
    public var work: Work?
    public var verified: Bool
    public var error: String?

    public static let resendCooldown: TimeInterval = 30
    static let resendKey = Key.character("r")
    static let resentText = "We sent the link again."
    static let verifiedText = "Email verified."
    static let laterText = "You can verify it later from Settings."

    public init(
        email: String, resendAfter: Date? = nil, work: Work? = nil, verified: Bool = false, error: String? = nil
    ) {
        self.email = email
        self.resendAfter = resendAfter
        self.work = work
        self.verified = verified
        self.error = error
    }

    public var id: String { "verify-recovery-email" }
    public var needsClock: Bool { resendAfter != nil }

    func canResend(_ context: ScreenContext) -> Bool {
        work == nil && !verified && resendAfter.map { context.now >= $0 } ?? true
    }

    public func keymap(_ context: ScreenContext) -> Keymap {
        var bindings: [KeyHint] = []
        if context.options.hasReferenceBackend { bindings.append(KeyHint(OutboxPanel.keys, "Open link")) }
        if canResend(context) { bindings.append(KeyHint([Self.resendKey], "Resend")) }
        if work == nil, !verified { bindings.append(KeyHint([.enter], "Continue unverified")) }
        return Keymap(bindings)
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        switch event {
        case .paste(let text):
            // A paste reaches a screen that takes no typing: the link from the mail, tapped.
            return openLink(text, context)
        case .key(Self.resendKey):
            guard canResend(context) else { return nil }
            work = .resending
            error = nil
            return [.request(ResendRegistrationLink(email: email), tag: "resend")]
        case .key(.enter):
            guard work == nil, !verified else { return nil }
            work = .continuing
            error = nil
            return [.request(ContinueOnboarding(from: .verifyEmail), tag: "continue")]
        default:
            return nil
        }
    }

    public mutating func use(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? {
        guard RecoveryEmailLink().accepts(message), let token = message.token else { return nil }
        return open(token: token, context)
    }

    public mutating func openLink(_ text: String, _ context: ScreenContext) -> [Command]? {
        guard let token = PastedLink.token(from: text) else {
            error = CheckEmailScreen.notALinkText
            return []
        }
        return open(token: token, context)
    }

    private mutating func open(token: String, _ context: ScreenContext) -> [Command] {
        error = nil
        return [
            .push(VerifyingLinkScreen(link: AnyLinkPurpose(RecoveryEmailLink()), token: token, shownAt: context.now))
        ]
    }

    /// The link was confirmed (`RecoveryEmailLink` came back here): verified, and on to the next step.
    public mutating func receiveChoice(_ choice: AnyValue, _ context: ScreenContext) -> [Command] {
        guard choice.as(RegistrationConfirmed.self) != nil else { return [] }
        verified = true
        resendAfter = nil
        error = nil
        work = .loadingProfile
        return [.request(LoadProfile(), tag: "profile")]
    }

    public mutating func receive(
        _ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext
    ) -> [Command] {
        work = nil
        switch (tag, result) {
        case ("resend", .success):
            resendAfter = context.now + Self.resendCooldown
            return [.showToast(Self.resentText)]
        case ("resend", .failure(.rateLimited(let retryAfter?, _))):
            resendAfter = context.now + TimeInterval(retryAfter)
        case ("profile", .success(let reply)):
            guard let profile = reply.as(Profile.self) else { return [] }
            // A backend that still has the step open after the link: it is left as done.
            guard profile.onboardingStep != .verifyEmail else {
                work = .continuing
                return [.request(ContinueOnboarding(from: .verifyEmail), tag: "continue")]
            }
            return Onboarding.advance(to: profile)
        case ("profile", .failure):
            // The address is verified whatever this answer was: the next step is the last.
            var profile = context.profile
            profile?.emailVerified = true
            profile?.onboardingStep = .finish
            return [.setProfile(profile), .resetStack(OnboardingDoneScreen())]
        case ("continue", .success(let reply)):
            guard let profile = reply.as(Profile.self) else { return [] }
            return Onboarding.advance(to: profile)
        case (_, .failure(let failure)):
            error = failure.message
        default:
            break
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if let resendAfter, context.now >= resendAfter { self.resendAfter = nil }
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        OnboardingProgress(step: 4).title("Verify your email", into: &canvas)
        if verified {
            canvas.paragraph(Self.verifiedText, style: .success)
            canvas.centered("One moment…", style: .muted)
            return
        }
        canvas.paragraph("We sent a link to \(email). Open it to confirm the address is yours.")
        let outbox = context.options.hasReferenceBackend ? " The mail is in the outbox (Ctrl+O)." : ""
        canvas.paragraph(CheckEmailScreen.pasteHint + outbox, style: .muted)
        if let error { canvas.paragraph(error, style: .danger) }
        if work == .resending {
            canvas.centered("Sending…", style: .muted)
        } else if let resendAfter, context.now < resendAfter {
            let left = Banner.secondsLeft(until: resendAfter, now: context.now)
            canvas.centered("Resend in \(TextLayout.countdown(seconds: left))", style: .muted)
        } else if canResend(context) {
            canvas.centered("[ Resend link ]  r", style: Style.accent.with(.bold))
        } else {
            canvas.centered("Resend link", style: Style.muted.with(.dim))
        }
        if work == .continuing {
            canvas.centered("Continuing…", style: .muted)
        } else {
            canvas.centered("[ Continue without verifying ]  Enter", style: .bold)
        }
        canvas.paragraph(Self.laterText, style: .muted)
    }
}
