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

    public static let resendCooldown = RateLimit.sendCooldown
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

    public enum Intent: Sendable { case openOutbox, resend, continueUnverified }
    public enum Reply: Equatable, Sendable {
        case resend(Result<VerificationResent, APIError>)
        /// Where onboarding stands once the link was confirmed.
        case profile(Result<Profile, APIError>)
        case continueOnboarding(Result<Profile, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = []
        if context.options.hasReferenceBackend { bindings.append(.outbox("Open link", .openOutbox)) }
        if canResend(context) { bindings.append(KeyBinding([Self.resendKey], "Resend", .resend)) }
        if work == nil, !verified { bindings.append(KeyBinding([.enter], "Continue unverified", .continueUnverified)) }
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .openOutbox:
            return [.showOutbox]
        case .resend:
            work = .resending
            error = nil
            return [.call(Endpoint.ResendRegistrationLink(email: email), Reply.resend)]
        case .continueUnverified:
            error = nil
            return continueOnboarding()
        }
    }

    /// A paste reaches a screen that takes no typing: the link from the mail, tapped.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .paste(let text) = event else { return nil }
        return openLink(text, context)
    }

    private mutating func continueOnboarding() -> [Command] {
        work = .continuing
        return [.call(Endpoint.ContinueOnboarding(from: .verifyEmail), Reply.continueOnboarding)]
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
            .push(
                VerifyingLinkScreen(
                    link: AnyLinkPurpose(RecoveryEmailLink(email: email)), token: token, shownAt: context.now))
        ]
    }

    /// The link was confirmed (`RecoveryEmailLink` came back here): verified, and on to the next step.
    public mutating func receiveChoice(_ confirmed: RegistrationConfirmed, _ context: ScreenContext) -> [Command] {
        verified = true
        resendAfter = nil
        error = nil
        work = .loadingProfile
        return [.call(Endpoint.GetProfile(), Reply.profile)]
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        work = nil
        switch reply {
        case .resend(.success):
            resendAfter = context.now + Self.resendCooldown
            return [.showToast(Self.resentText)]
        case .resend(.failure(.rateLimited(let retryAfter?, _, _))):
            resendAfter = context.now + TimeInterval(retryAfter)
        case .profile(.success(let profile)):
            // A backend that still has the step open after the link: it is left as done.
            guard profile.onboardingStep.known != .verifyEmail else { return continueOnboarding() }
            return Onboarding.advance(to: profile)
        case .profile(.failure):
            // The address is verified whatever this answer was: the next step is the last.
            var profile = context.profile
            profile?.emailVerified = true
            profile?.onboardingStep = .init(.finish)
            return [.setProfile(profile), .resetStack(OnboardingDoneScreen())]
        case .continueOnboarding(.success(let profile)):
            return Onboarding.advance(to: profile)
        case .resend(.failure(let failure)), .continueOnboarding(.failure(let failure)):
            error = failure.message
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if let resendAfter, context.now >= resendAfter { self.resendAfter = nil }
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        OnboardingProgress(.verifyEmail, context).title("Verify your email", into: &canvas)
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
