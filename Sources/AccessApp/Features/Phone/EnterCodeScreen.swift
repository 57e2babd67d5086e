import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Enter the code" (seed 001), for every flow that sends one: six boxes that submit when full. A
/// wrong code stays in view: the next digit starts a new code, ← or Backspace edit the kept one; an expired
/// or exhausted one leaves Resend as the only way on (seed 000). Countdowns are computed from `context.now`,
/// never stored. The boxes are the code-entry core every code screen shares (`CodeEntry`); what every flow of
/// this screen shares is the resend, the code's lifetime and the help; `step` is the flow's own part: what
/// the code proves, where it went, and the request or challenge it answers.
public struct EnterCodeScreen: ScreenModel {
    public typealias Problem = CodeEntry.Refusal

    /// The flow this code belongs to (`EnterCodeScreen+Step.swift`).
    public var step: Step
    public var expiresAt: Date
    public var resendAfter: Date
    /// The boxes, what the last answer said, and a verify's lock.
    public var entry: CodeEntry
    /// The backend said the code is dead (used up, five wrong tries, or timed out).
    public var isDead: Bool
    /// Set by `tick` once nothing on screen counts down any more, so the app stops its clock.
    public var clockDone: Bool
    /// The server's 429 on a resend: no resend, and its countdown banner, until it passes.
    public var limit: RateLimit?
    /// "Didn't receive a code?" is open (seed 003's help text).
    public var showsHelp: Bool = false

    public init(
        step: Step, expiresAt: Date, resendAfter: Date, digits: String = "", problem: Problem? = nil,
        isDead: Bool = false, isWorking: Bool = false, clockDone: Bool = false, limit: RateLimit? = nil
    ) {
        self.limit = limit
        self.step = step
        self.expiresAt = expiresAt
        self.resendAfter = resendAfter
        entry = CodeEntry(digits: digits, refusal: problem, isWorking: isWorking)
        self.isDead = isDead
        self.clockDone = clockDone
    }

    /// The code of a phone flow: a new number's, or the number re-verified.
    public init(
        flow: PhoneFlow, phone: String, requestId: String, expiresAt: Date, resendAfter: Date, digits: String = "",
        problem: Problem? = nil, isDead: Bool = false, isWorking: Bool = false, clockDone: Bool = false,
        limit: RateLimit? = nil
    ) {
        self.init(
            step: Step(flow, PhoneCodeRequest(phone: phone, requestId: requestId)), expiresAt: expiresAt,
            resendAfter: resendAfter, digits: digits, problem: problem, isDead: isDead, isWorking: isWorking,
            clockDone: clockDone, limit: limit)
    }

    public init(flow: PhoneFlow, accepted: OTPRequestAccepted) {
        self.init(
            step: Step(flow, PhoneCodeRequest(accepted)), expiresAt: accepted.expiresAt,
            resendAfter: accepted.resendAfter)
    }

    /// "Text me a code" in "Verify it's you", for `flow`.
    public init(reauth flow: AnyFlow, accepted: OTPRequestAccepted) {
        self.init(
            step: .reauth(flow, PhoneCodeRequest(accepted)), expiresAt: accepted.expiresAt,
            resendAfter: accepted.resendAfter)
    }

    /// The sign-in code a challenge sent, by the `channel` the app asked for, and the display name to send
    /// with it.
    public init(signIn challenge: SignInChallenge, channel: SignInChannel, displayName: String? = nil) {
        self.init(
            step: .signIn(SignInCodeChallenge(challenge, asked: channel, displayName: displayName)),
            expiresAt: challenge.expiresAt,
            resendAfter: challenge.resendAfter)
    }

    /// The number or the address the code went to, as people read it.
    var shownDestination: String {
        step.isEmailed ? step.destination : PhoneNumberRules.display(e164: step.destination)
    }

    /// The phone is verified again: the account has everything back, and Settings says so.
    static func restored(_ profile: Profile?) -> [Command] {
        [.setProfile(profile), .resetStack(SettingsScreen()), .showToast(LimitedAccess.restoredText)]
    }
    static let phoneVerifiedText = "Phone verified. Next, your profile."
    static let emailVerifiedText = "Email verified. Next, your profile."
    static let expiredText = OnScreenMessage.codeExpired.text

    public var id: String { "enter-code" }
    public var takesText: Bool { true }
    public var secretEntry: SecretEntry? { .code(recipient: step.destination) }

    public func concealingSecrets() -> Self {
        var copy = self
        copy.entry.otp.isConcealed = true
        return copy
    }
    public var needsClock: Bool { !clockDone }

    public func isExpired(_ context: ScreenContext) -> Bool { isDead || context.now >= expiresAt }

    /// What the closed boxes say: why the code died when the answer said (its last wrong try), else that it
    /// expired.
    var closedText: String { isDead ? entry.refusalText ?? Self.expiredText : Self.expiredText }
    public func canResend(_ context: ScreenContext) -> Bool { !entry.isWorking && context.now >= resendAfter }

    /// Six digits are in and may be sent (again, after a wrong code is edited or not).
    func canVerify(_ context: ScreenContext) -> Bool { entry.canSend(closed: isExpired(context), at: context.now) }

    public enum Intent: Sendable { case verify, resend, outbox, help, support, cancel }
    public enum Reply: Equatable, Sendable {
        /// A texted code checked: a new number's, a re-auth's or a re-verification's.
        case verify(Result<VerifyOTPResult, APIError>)
        case resend(Result<OTPRequestAccepted, APIError>)
        /// A sign-in code checked: the session, when it is right.
        case verifySignIn(Result<SignedIn, APIError>)
        case resendSignIn(Result<SignInChallenge, APIError>)
        /// Re-verification's profile, fetched once the code gave everything back.
        case profile(Result<Profile, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = []
        if canVerify(context) { bindings.append(KeyBinding([.enter], "Verify", inFooter: false, .verify)) }
        // Without a phone, the code is read in the outbox: the key belongs in the footer here.
        if context.options.hasReferenceBackend { bindings.append(.outbox("Outbox", .outbox)) }
        bindings.append(KeyBinding([.character("h")], "Didn't receive a code?", inFooter: false, .help))
        bindings.append(KeyBinding([.control("s")], "Contact support", inFooter: false, .support))
        if canResend(context) {
            bindings.append(KeyBinding([.character("r")], "Resend code", aliases: [.character("R")], .resend))
            if !canVerify(context) { bindings.append(KeyBinding([.enter], "Resend code", inFooter: false, .resend)) }
        }
        // Back cancels the code server-side. A sign-in challenge has nothing to cancel (its code dies
        // with the next one or its time): Esc stays the app's Back there.
        if context.canGoBack, step.phoneRequest != nil { bindings.append(KeyBinding([.escape], "Back", .cancel)) }
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .verify: return verify(context)
        case .resend: return resend(context)
        case .outbox: return [.showOutbox]
        case .help: showsHelp.toggle()
        case .support: return [.contactSupport(typed: step.typed)]
        case .cancel:
            guard let request = step.phoneRequest else { return [] }
            return [.callIgnoringReply(Endpoint.CancelOtp(requestId: request.requestId)), .pop]
        }
        return []
    }

    /// Typing and pasting the digits.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard let typed = entry.type(event, closed: isExpired(context), at: context.now) else { return nil }
        return typed == .full ? verify(context) : []
    }

    private mutating func verify(_ context: ScreenContext) -> [Command] {
        guard !entry.isWorking else { return [] }
        entry.sending()
        let otp = entry.otp
        if let verify = verifyRequest(code: otp.code, context) { return [.call(verify, Reply.verify)] }
        guard case .signIn(let challenge) = step else { return [] }
        let verify = VerifySignInCode(
            challengeId: challenge.challengeId, code: otp.code, displayName: challenge.displayName)
        return [.call(verify, Reply.verifySignIn)]
    }

    /// How a texted code is checked (the palette's "Exhaust this code" sends the same); nil for a sign-in code,
    /// which answers a challenge instead.
    func verifyRequest(code: String, _ context: ScreenContext) -> Endpoint.VerifyOtp? {
        switch step {
        case .newNumber(_, let request):
            // A new number's code carries the verification made before it.
            Endpoint.VerifyOtp(requestId: request.requestId, code: code, reauthToken: context.reauth?.reauthToken)
        case .reauth(_, let request), .reverify(let request):
            // A re-auth code is the verification itself, as is re-verification's (the limited session is
            // the proof).
            Endpoint.VerifyOtp(requestId: request.requestId, code: code)
        case .signIn:
            nil
        }
    }

    private mutating func resend(_ context: ScreenContext) -> [Command] {
        guard canResend(context) else { return [] }
        entry.isWorking = true
        switch step {
        case .newNumber(_, let request), .reauth(_, let request), .reverify(let request):
            return [.call(Endpoint.ResendOtp(requestId: request.requestId), Reply.resend)]
        case .signIn(let challenge):
            return [.call(Endpoint.ResendSignInCode(challengeId: challenge.challengeId), Reply.resendSignIn)]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        entry.isWorking = false
        switch reply {
        case .verify(.success(let verified)):
            return afterVerifying(verified)
        case .verifySignIn(.success(let signedIn)):
            // A sign-up: a short word of success as the profile opens (seed 003's "Verification Success").
            guard signedIn.isNewUser else { return [.signedIn(signedIn)] }
            return [.signedIn(signedIn), .showToast(step.isEmailed ? Self.emailVerifiedText : Self.phoneVerifiedText)]
        case .resend(.success(let accepted)):
            step.resent(accepted)
            restart(expiresAt: accepted.expiresAt, resendAfter: accepted.resendAfter)
        case .resendSignIn(.success(let challenge)):
            step.resent(challenge)
            restart(expiresAt: challenge.expiresAt, resendAfter: challenge.resendAfter)
        case .profile(.success(let profile)):
            return Self.restored(profile)
        case .profile(.failure):
            // The code was right, which restores full access (the contract): the profile that could
            // not be fetched says so too, until the next fetch.
            var profile = context.profile
            profile?.access = .init(.full)
            return Self.restored(profile)
        case .verifySignIn(.failure(let failure)) where DisplayNameInput.isAbout(failure):
            return displayNameRefused(failure)
        case .verify(.failure(let failure)), .verifySignIn(.failure(let failure)):
            return fail(failure, resending: false, context)
        case .resend(.failure(let failure)), .resendSignIn(.failure(let failure)):
            return fail(failure, resending: true, context)
        }
        return []
    }

    /// The right texted code: what it proved decides what follows.
    private mutating func afterVerifying(_ verified: VerifyOTPResult) -> [Command] {
        switch step {
        case .newNumber(let flow, let request):
            let shown = PhoneNumberRules.display(e164: request.phone)
            let sheet = Command.showSheet(flow == .addPhone ? .phoneAdded(shown) : .phoneUpdated(shown))
            guard let methods = verified.authMethods else { return [.popTo(HubScreen.self), sheet] }
            return [.setMethods(methods), .popTo(HubScreen.self), sheet]
        case .reauth(let flow, _):
            guard let grant = verified.reauth else { return [] }
            return [.grantReauth(grant), .continueFlow(flow)]
        case .reverify:
            entry.isWorking = true
            let fetch = Command.call(Endpoint.GetProfile(), Reply.profile)
            return verified.authMethods.map { [.setMethods($0), fetch] } ?? [fetch]
        case .signIn:
            // A sign-in code is answered with a session (`verifySignIn`), never with this.
            return []
        }
    }

    private mutating func fail(_ failure: APIError, resending: Bool, _ context: ScreenContext) -> [Command] {
        if resending, case .rateLimited(let retryAfter?, let message, let kind) = failure {
            // Resend stays off until the server takes one again, counting down with the banner; the code
            // sent before still works.
            let until = context.now + TimeInterval(retryAfter)
            resendAfter = max(resendAfter, until)
            clockDone = false
            limit = RateLimit(until: until, kind: kind, message: message)
            return []
        }
        guard let failure = entry.refused(failure, now: context.now) else {
            // A lock counts down with the clock.
            if entry.lock != nil { clockDone = false }
            return []
        }
        switch failure {
        case .codeIncorrect:
            // The fifth wrong code kills the request on the server (seed 000: forcing resend): a limit reached,
            // said as one (issue 46 item 5), where the boxes would say the code expired.
            isDead = true
            entry.refusal = .message(OnScreenMessage.codeWrongTooOften.text)
        case .codeExpired:
            isDead = true
            entry.refusal = nil
        case .reauthRequired(let message):
            // The 15-minute window closed while the code was being typed: verify again, then this
            // screen sends the same code (see `receiveChoice`).
            guard let flow = step.resumableFlow else {
                entry.refusal = .message(message)
                return []
            }
            return [.push(ReauthPickerScreen(flow: AnyFlow(ResumeCodeEntry(phoneFlow: flow))))]
        case .offline:
            entry.refusal = .message(EnterPhoneScreen.offlineText)
        case .taken:
            entry.refusal = .message(EnterPhoneScreen.takenText)
        default:
            entry.refusal = .message(failure.message)
        }
        return []
    }

    /// The server refused the display name (checked before the code, so the code still stands): back to the
    /// screen with the name's field, the words under it, the challenge kept there for the corrected name.
    private func displayNameRefused(_ failure: APIError) -> [Command] {
        guard case .signIn(let current) = step else { return [] }
        let prefix = DisplayNameInput.field + ": "
        let message =
            failure.message.hasPrefix(prefix) ? String(failure.message.dropFirst(prefix.count)) : failure.message
        let challenge = SignInChallenge(
            challengeId: current.challengeId, channel: .init(current.channel), destination: current.destination,
            expiresAt: expiresAt, resendAfter: resendAfter)
        let refused = DisplayNameRefused(message: message, challenge: challenge)
        switch current.channel {
        case .email: return [.returnTo(SignInEmailScreen.self, with: refused)]
        case .phone: return [.returnTo(EnterPhoneScreen.self, with: .displayNameRefused(refused))]
        }
    }

    /// A new code was sent (a resend): empty boxes, fresh countdowns.
    private mutating func restart(expiresAt: Date, resendAfter: Date) {
        self.expiresAt = expiresAt
        self.resendAfter = resendAfter
        entry.otp.clear()
        entry.refusal = nil
        isDead = false
        clockDone = false
    }

    public func banner(_ context: ScreenContext) -> Banner? {
        entry.banner(at: context.now) ?? limit?.banner(at: context.now)
    }

    /// Back from "Verify it's you" after the window closed mid-flow: the typed code goes again.
    public mutating func receiveChoice(_ choice: ResumeCodeEntry, _ context: ScreenContext) -> [Command] {
        guard entry.otp.isComplete, !isExpired(context) else { return [] }
        return verify(context)
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if let limit, context.now >= limit.until { self.limit = nil }
        entry.tick(at: context.now)
        if isExpired(context), context.now >= resendAfter, limit == nil, entry.lock == nil { clockDone = true }
        return []
    }

    /// The outbox panel's code completes the flow as if the user had typed it.
    public mutating func use(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? {
        guard let code = message.code, !entry.isWorking else { return nil }
        // Expired here, the boxes take no code, dead or live, until Resend (seed 001: the only option).
        guard !isExpired(context) else { return [.showToast(closedText)] }
        var filled = OTPInput()
        guard filled.paste(code) else { return nil }
        entry.otp = filled
        entry.refusal = nil
        return verify(context)
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Enter the code")
        canvas.paragraph("We \(step.isEmailed ? "emailed" : "texted") a 6-digit code to \(shownDestination).")
        let expired = isExpired(context)
        entry.draw(into: &canvas, context, closedText: expired ? closedText : nil)
        if entry.isWorking {
            canvas.centered("Working…", style: .muted)
        } else if canResend(context) {
            canvas.centered("[ Resend code ]", style: Style.accent.with(.bold))
        } else {
            let left = Banner.secondsLeft(until: resendAfter, now: context.now)
            canvas.centered("Resend in \(TextLayout.countdown(seconds: left))", style: .muted)
        }
        if !expired {
            // Seed 003: a countdown for the code's own expiry, besides the resend one.
            let left = Banner.secondsLeft(until: expiresAt, now: context.now)
            canvas.centered("Code valid for \(TextLayout.countdown(seconds: left))", style: .muted)
        }
        canvas.paragraph("Didn't receive a code? Press h", style: .muted, spacing: 0)
        if showsHelp {
            let lines =
                step.isEmailed
                ? Self.emailHelpLines(email: step.destination)
                : Self.helpLines(phone: shownDestination, onAccount: step.isAccountsOwn)
            for line in lines {
                canvas.paragraph("\(context.glyphs == .ascii ? "-" : "•") \(line)", style: .muted, spacing: 0)
            }
        }
    }

    /// Seed 003's "Didn't receive a code?" help, in our words.
    /// `onAccount`: the number on the account ("Verify it's you"), which cannot be fixed here (issue 28
    /// item 17); Esc goes back to the other ways to verify.
    static func helpLines(phone: String, onAccount: Bool = false) -> [String] {
        [
            onAccount
                ? "It went to the number on your account: \(phone). Esc goes back to verify another way."
                : "Check the number: \(phone). Esc goes back to fix it.",
            "Texts can take a minute. Resend when the timer allows (\(SendLimits.maxResendsPerWindow) per \(RuleText.duration(SendLimits.resendWindow))).",
            "Still nothing? Ctrl+S: Contact support.",
        ]
    }

    static func emailHelpLines(email: String) -> [String] {
        [
            "Check the address: \(email). Esc goes back to fix it.",
            "Look in spam and promotions. Resend when the timer allows (\(SendLimits.maxResendsPerWindow) per \(RuleText.duration(SendLimits.resendWindow))).",
            "Still nothing? Ctrl+S: Contact support.",
        ]
    }
}
