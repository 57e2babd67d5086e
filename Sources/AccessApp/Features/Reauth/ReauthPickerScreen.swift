import AccessAPI
import TerminalKit

/// "Verify it's you": the user's sign-in methods minus the target of the flow (seed 000),
/// and a way out to Contact support.
public struct ReauthPickerScreen: ScreenModel {
    public var flow: AnyFlow
    public var selection: Int
    /// A request is under way (sending the link, the provider round trip).
    public var isWorking: Bool
    public var error: String?

    public init(flow: AnyFlow, selection: Int = 0, isWorking: Bool = false, error: String? = nil) {
        self.flow = flow
        self.selection = selection
        self.isWorking = isWorking
        self.error = error
    }

    public var id: String { "reauth-picker" }
    /// The simulated Apple/Google sheet sends its request for this screen under this tag.
    static let socialTag = "social"

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
            return (title, context.options.hasReferenceBackend ? "Re-sign in to confirm" : "Not available here")
        case .phone: return ("Text me a code", context.methods?.phone ?? "")
        }
    }

    static func providerUnavailableText(_ provider: ReauthMethod) -> String {
        let name = provider == .apple ? "Apple" : "Google"
        return "\(name) sign-in can't run in a terminal against this backend. Choose another way to verify."
    }

    public func keymap(_ context: ScreenContext) -> Keymap {
        Keymap([.move, .open("Choose")])
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .key(let key) = event else { return nil }
        let options = options(context)
        switch key {
        case .up, .character("k"):
            selection = max(0, selection - 1)
            return []
        case .down, .character("j"):
            selection = min(options.count - 1, selection + 1)
            return []
        case .enter, .right:
            guard !isWorking else { return [] }
            error = nil
            switch options[min(selection, options.count - 1)] {
            case .support:
                return [.push(ContactSupportScreen(userId: context.methods?.userId))]
            case .method(.password):
                return [.push(PasswordReauthScreen(flow: flow))]
            case .method(.email):
                isWorking = true
                return [.request(SendReauthLink())]
            case .method(.phone):
                guard let phone = context.methods?.phone else { return [] }
                isWorking = true
                return [.request(RequestPhoneOTP(phone: phone, purpose: .reauth, reauthToken: nil))]
            case .method(let provider):
                // Only the reference backend simulates the provider; another backend needs the
                // provider's own sign-in, which a terminal cannot run. Nothing is sent to /_admin.
                guard context.options.hasReferenceBackend else {
                    error = Self.providerUnavailableText(provider)
                    return []
                }
                return [.showSheet(.socialReauth(provider == .apple ? .apple : .google))]
            }
        default:
            return nil
        }
    }

    public mutating func receive(
        _ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext
    )
        -> [Command]
    {
        isWorking = false
        if let sent = result.reply(EmailLinkSent.self) {
            return [.push(CheckEmailScreen(flow: flow, sentTo: sent.sentTo, sentAt: context.now))]
        }
        if let grant = result.reply(ReauthGrant.self) { return [.grantReauth(grant), .continueFlow(flow)] }
        if let accepted = result.reply(OTPRequestAccepted.self) {
            return [.push(EnterCodeScreen(step: .reauth(flow), accepted: accepted))]
        }
        if case .failure(let failure) = result { error = failure.message }
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Verify it's you")
        canvas.paragraph(flow.base.pickerExplanation)
        for (index, option) in options(context).enumerated() {
            switch option {
            case .method(let method):
                let row = Self.row(method, context)
                canvas.row(ListRow(row.title, detail: row.detail, control: .chevron, isSelected: index == selection))
            case .support:
                canvas.row(ListRow("Can't access any of these?", control: .chevron, isSelected: index == selection))
            }
        }
        if isWorking { canvas.paragraph("Working…", style: .muted) }
        if let error { canvas.paragraph(error, style: .danger) }
    }
}
