import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Verify it's you": the user's sign-in methods minus the target of the flow (seed 000),
/// and a way out to Contact support.
public struct ReauthPickerScreen: ScreenModel {
    public var flow: AnyFlow
    public var selection: Int
    /// A request is under way (sending the link, the provider round trip).
    public var isWorking: Bool
    public var error: String?
    /// The server's 429 on "Text me a code" or "Email a link" (its target: that method's raw value): that
    /// row is off and the banner counts down until the wait is over.
    public var limit: RateLimit?

    public init(
        flow: AnyFlow, selection: Int = 0, isWorking: Bool = false, error: String? = nil, limit: RateLimit? = nil
    ) {
        self.flow = flow
        self.selection = selection
        self.isWorking = isWorking
        self.error = error
        self.limit = limit
    }

    public var id: String { "reauth-picker" }
    enum Option: Equatable {
        case method(ReauthMethod)
        case support
    }

    func options(_ context: ScreenContext) -> [Option] {
        let methods =
            context.methods?.reauthMethods(excluding: flow.base.target, platform: context.options.platform) ?? []
        return methods.map(Option.method) + [.support]
    }

    static func row(_ method: ReauthMethod, _ context: ScreenContext) -> (title: String, detail: String) {
        switch method {
        case .password: return ("Use password", "Enter your current password")
        case .email: return ("Email a link", context.methods?.email ?? "")
        case .apple, .google:
            let title = method == .apple ? "Continue with Apple" : "Continue with Google"
            return (title, context.options.hasReferenceBackend ? "Re-sign in to confirm" : "Paste an ID token")
        case .phone:
            return ("Text me a code", context.methods?.phone.map { PhoneNumberRules.display(e164: $0) } ?? "")
        case .authenticator:
            return ("Authenticator app", TwoFactor.enterCodeText)
        case .passkey:
            return ("Passkey", "Use the passkey on this device")
        }
    }

    func isLimited(_ method: ReauthMethod, _ context: ScreenContext) -> Bool {
        limit?.applies(to: method.rawValue, at: context.now) ?? false
    }

    public var needsClock: Bool { limit != nil }

    public func banner(_ context: ScreenContext) -> Banner? { limit?.banner(for: limit?.target, at: context.now) }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if let limit, context.now >= limit.until { self.limit = nil }
        return []
    }

    public enum Intent: Sendable { case up, down, choose }
    public enum Reply: Equatable, Sendable {
        /// "Email a link".
        case link(Result<EmailLinkSent, APIError>)
        /// "Text me a code".
        case code(Result<OTPRequestAccepted, APIError>)
        /// Apple or Google, confirmed on the simulated sheet (`Sheet.socialReauth`).
        case social(Result<ReauthGrant, APIError>)
        /// Passkey: the re-auth options with what this device holds for them.
        case passkeyPrompt(Result<PasskeyPrompt, APIError>)
        /// Passkey, approved on the "Use your passkey" sheet.
        case passkey(Result<ReauthGrant, APIError>)
    }

    /// Esc on the "Use your passkey" sheet: the user's cancel, said inline; nothing was sent.
    public enum Choice: Equatable, Sendable { case passkeyCancelled }

    /// The "Use your passkey" sheet over the picker: Enter verifies with the chosen account's passkey.
    static func passkeySheet(_ prompt: PasskeyPrompt) -> Sheet {
        .usePasskey(
            prompt, .reauth,
            approve: { account in
                [
                    .call(
                        ReauthWithDevicePasskey(options: prompt.options, credentialID: account.credentialID),
                        Reply.passkey)
                ]
            },
            cancel: prompt.accounts.isEmpty ? [] : [.returnTo(ReauthPickerScreen.self, with: .passkeyCancelled)])
    }

    public mutating func receiveChoice(_ choice: Choice, _ context: ScreenContext) -> [Command] {
        isWorking = false
        error = PasskeyWording.cancelledText
        return []
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [.move(up: .up, down: .down), .open("Choose", .choose)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        let options = options(context)
        switch intent {
        case .up:
            selection = max(0, selection - 1)
            return []
        case .down:
            selection = min(options.count - 1, selection + 1)
            return []
        case .choose:
            let option = options[min(selection, options.count - 1)]
            // A row the server limited is off until its wait is over.
            if case .method(let method) = option, isLimited(method, context) { return [] }
            guard !isWorking else { return [] }
            error = nil
            return choose(option, context)
        }
    }

    private mutating func choose(_ option: Option, _ context: ScreenContext) -> [Command] {
        switch option {
        case .support:
            return [.contactSupport(typed: nil)]
        case .method(.password):
            return [.push(PasswordReauthScreen(flow: flow))]
        case .method(.authenticator):
            return [.push(AuthenticatorCodeScreen(purpose: .reauth(flow)))]
        case .method(.passkey):
            isWorking = true
            return [.call(PasskeyReauthPrompt(), Reply.passkeyPrompt)]
        case .method(.email):
            isWorking = true
            return [.call(Endpoint.ReauthEmailSend(), Reply.link)]
        case .method(.phone):
            guard let phone = context.methods?.phone else { return [] }
            isWorking = true
            return [.call(Endpoint.RequestOtp(phone: phone, purpose: .reauth, reauthToken: nil), Reply.code)]
        case .method(let provider):
            // Only the reference backend simulates the provider; another backend needs the
            // provider's own sign-in, which a terminal cannot run: its ID token, pasted, stands in.
            // Nothing is sent to /_admin.
            let social: SocialProvider = provider == .apple ? .apple : .google
            guard context.options.hasReferenceBackend else {
                return [.push(ProviderTokenScreen(provider: social, purpose: .reauth(flow)))]
            }
            return [.showSheet(.socialReauth(social))]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .link(.success(let sent)):
            return [.push(CheckEmailScreen(flow: flow, sentTo: sent.sentTo, sentAt: context.now))]
        case .code(.success(let accepted)):
            return [.push(EnterCodeScreen(reauth: flow, accepted: accepted))]
        case .social(.success(let grant)), .passkey(.success(let grant)):
            return [.grantReauth(grant), .continueFlow(flow)]
        case .passkeyPrompt(.success(let prompt)):
            // The sheet is the device's prompt: its Enter signs and sends, its Esc is the user's cancel.
            isWorking = !prompt.accounts.isEmpty
            return [.showSheet(Self.passkeySheet(prompt))]
        case .passkeyPrompt(.failure(let failure)), .passkey(.failure(let failure)):
            error = PasskeyWording.refusal(failure, .reauth)
            return []
        case .link(.failure(.rateLimited(let retryAfter?, let message, let kind))):
            limit = RateLimit(
                target: ReauthMethod.email.rawValue, until: context.now + TimeInterval(retryAfter), kind: kind,
                message: message)
            return []
        case .code(.failure(.rateLimited(let retryAfter?, let message, let kind))):
            limit = RateLimit(
                target: ReauthMethod.phone.rawValue, until: context.now + TimeInterval(retryAfter), kind: kind,
                message: message)
            return []
        case .link(.failure(let failure)), .code(.failure(let failure)), .social(.failure(let failure)):
            // A 429 without a wait included: none is invented, and the row stays live.
            error = failure.message
            return []
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Verify it's you")
        canvas.paragraph(flow.base.pickerExplanation)
        for (index, option) in options(context).enumerated() {
            switch option {
            case .method(let method):
                let row = Self.row(method, context)
                canvas.row(
                    ListRow(
                        row.title, detail: row.detail, control: .chevron, isSelected: index == selection,
                        isDisabled: isLimited(method, context)))
            case .support:
                canvas.row(ListRow("Can't access any of these?", control: .chevron, isSelected: index == selection))
            }
        }
        if isWorking { canvas.paragraph("Working…", style: .muted) }
        if let error { canvas.paragraph(error, style: .danger) }
    }
}
