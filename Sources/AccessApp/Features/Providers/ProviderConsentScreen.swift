import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Sign in with Google": the reference backend's stand-in for the provider's own consent screen,
/// reached from a "Connect" pill. It lists the accounts the simulated provider has on this
/// "device"; Continue signs in with the chosen one and links it. Against another backend there
/// is no simulated provider, and the screen says so instead of calling the admin API.
public struct ProviderConsentScreen: ScreenModel {
    public enum Phase: Equatable, Sendable {
        /// Not the reference backend: connecting needs the provider's real sign-in.
        case unavailable
        case loading
        case loadFailed(String)
        case choosing
        /// The chosen account is being signed in and linked (or, after a refusal, the hub's
        /// methods fetched again).
        case connecting
        /// "Simulate an error": the provider failed before handing back a token.
        case providerError
    }

    public var provider: SocialProvider
    public var phase: Phase
    public var accounts: [ProviderAccount]
    /// An account, or the last row: "Simulate an error".
    public var selection: Int
    /// Under the list: why the chosen account was not linked.
    public var error: String?
    /// Continue with Apple/Google from the sign-in screen: the chosen account signs in (or signs up)
    /// instead of being linked to the signed-in account.
    public var isSignIn = false

    public init(
        provider: SocialProvider, phase: Phase, accounts: [ProviderAccount] = [], selection: Int = 0,
        error: String? = nil
    ) {
        self.provider = provider
        self.phase = phase
        self.accounts = accounts
        self.selection = selection
        self.error = error
    }

    /// From the hub's Connect pill: the simulated provider exists only on the reference backend.
    init(connecting provider: SocialProvider, _ context: ScreenContext) {
        self.init(provider: provider, phase: context.options.hasReferenceBackend ? .loading : .unavailable)
    }

    /// From the sign-in screen's Continue with Apple/Google.
    init(signingInWith provider: SocialProvider, _ context: ScreenContext) {
        self.init(connecting: provider, context)
        isSignIn = true
    }

    public var id: String { "provider-consent" }

    static func takenText(_ provider: SocialProvider, brand: Brand) -> String {
        "This \(provider.displayName) account is already linked to another \(brand.name) account. Choose another account."
    }
    static func connectedText(_ provider: SocialProvider) -> String { "\(provider.displayName) connected." }
    static func alreadyConnectedText(_ provider: SocialProvider) -> String {
        "\(provider.displayName) is already connected."
    }
    static func providerErrorText(_ provider: SocialProvider) -> String {
        "\(provider.displayName) couldn't sign you in. Nothing was changed."
    }
    static func unavailableText(_ provider: SocialProvider, signingIn: Bool = false) -> String {
        let name = provider.displayName
        return
            "\(signingIn ? "Signing in with" : "Connecting") \(name) needs \(name)'s own sign-in, which isn't available here. Only the reference backend can stand in for \(name); here, paste an ID token for \(name) from your own test tooling."
    }

    var simulateErrorRow: Int { accounts.count }

    public enum Intent: Sendable { case up, down, choose, retry, cancel, pasteToken }
    public enum Reply: Equatable, Sendable {
        case accounts(Result<[ProviderAccount], APIError>)
        case connect(Result<AuthMethods, APIError>)
        case signIn(Result<SignedIn, APIError>)
        /// The methods fetched after a refused connect: the hub may have been out of date.
        case refresh(Result<AuthMethods, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        // Cancel leaves with nothing changed; nothing to cancel where there is no provider to ask: there,
        // it is just Back.
        let cancel = KeyBinding([.escape], phase == .unavailable ? "Back" : "Cancel", aliases: [.left], Intent.cancel)
        switch phase {
        case .choosing: return [.move(up: .up, down: .down), KeyBinding([.enter], "Continue", .choose), cancel]
        case .loadFailed, .providerError: return [KeyBinding([.enter], "Try again", .retry), cancel]
        case .unavailable: return [KeyBinding([.enter], "Paste an ID token", .pasteToken), cancel]
        case .loading, .connecting: return [cancel]
        }
    }

    public func onAppear(_ context: ScreenContext) -> [Command] {
        guard phase == .loading, context.options.hasReferenceBackend else { return [] }
        return [.call(Endpoint.AdminProviderAccounts(provider: provider), Reply.accounts)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .cancel:
            // A reply still on its way is dropped with the screen.
            return [.pop]
        case .pasteToken:
            // No stand-in for the provider here: its ID token, pasted, goes to the same call.
            return [.replaceTop(ProviderTokenScreen(provider: provider, purpose: isSignIn ? .signIn : .connect))]
        case .up:
            selection = max(0, selection - 1)
        case .down:
            selection = min(simulateErrorRow, selection + 1)
        case .choose:
            return choose()
        case .retry where phase == .providerError:
            phase = .choosing
        case .retry:
            phase = .loading
            return onAppear(context)
        }
        return []
    }

    private mutating func choose() -> [Command] {
        error = nil
        guard accounts.indices.contains(selection) else {
            phase = .providerError
            return []
        }
        phase = .connecting
        let subject = accounts[selection].subject
        if isSignIn {
            return [.call(SignInWithProviderAccount(provider: provider, subject: subject), Reply.signIn)]
        }
        return [.call(ConnectProviderAccount(provider: provider, subject: subject), Reply.connect)]
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        switch reply {
        case .accounts(.success(let accounts)):
            self.accounts = accounts
            selection = 0
            phase = .choosing
        case .accounts(.failure(let failure)):
            phase = .loadFailed(failure.message)
        case .signIn(.success(let signedIn)):
            return [.signedIn(signedIn)]
        case .signIn(.failure(let failure)):
            phase = .choosing
            error = failure.message
        case .refresh(let result):
            phase = .choosing
            guard case .success(let methods) = result else { return [] }
            guard methods.signInMethods.has(provider.signInMethod) else { return [.setMethods(methods)] }
            return [
                .setMethods(methods), .popTo(HubScreen.self), .showToast(Self.alreadyConnectedText(provider)),
            ]
        case .connect(let result):
            return receiveConnect(result, context)
        }
        return []
    }

    private mutating func receiveConnect(
        _ result: Result<AuthMethods, APIError>, _ context: ScreenContext
    )
        -> [Command]
    {
        switch result {
        case .success(let methods):
            return [.setMethods(methods), .popTo(HubScreen.self), .showToast(Self.connectedText(provider))]
        case .failure(.server(409, ErrorCode.providerTaken.rawValue, _)):
            phase = .choosing
            error = Self.takenText(provider, brand: context.options.brand)
            return []
        case .failure(.server(422, ErrorCode.alreadyLinked.rawValue, let message)):
            // The hub was out of date: fetch the methods, and the hub shows the provider linked.
            error = message
            return [.call(LoadAuthMethods(), Reply.refresh)]
        case .failure(.invalid(_, let message, _)):
            // A token the backend refused: the hub may be out of date too, so fetch the methods; if the
            // provider is linked after all, the hub shows it.
            error = message
            return [.call(LoadAuthMethods(), Reply.refresh)]
        case .failure(let failure):
            phase = .choosing
            error = failure.message
            return []
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        let name = provider.displayName
        guard phase != .unavailable else {
            canvas.title(isSignIn ? "Continue with \(name)" : "Connect \(name)")
            canvas.paragraph(Self.unavailableText(provider, signingIn: isSignIn))
            canvas.paragraph("Press Enter to paste an ID token, or Esc to go back.", style: .muted)
            return
        }
        canvas.title("Sign in with \(name)", subtitle: "Choose an account to continue to \(context.options.brand.name)")
        switch phase {
        case .loading:
            canvas.skeleton(rows: 2)
        case .loadFailed(let message):
            canvas.paragraph(message, style: .danger)
            canvas.paragraph("Press Enter to try again, or Esc to cancel.", style: .muted)
        case .providerError:
            canvas.paragraph(Self.providerErrorText(provider), style: .danger)
            canvas.paragraph("Press Enter to try again, or Esc to cancel.", style: .muted)
        case .choosing, .connecting, .unavailable:
            drawAccounts(into: &canvas, context)
        }
        canvas.paragraph("(The reference backend plays \(name) here.)", style: .muted)
    }

    /// What the provider tells the app. The reference backend's simulated provider vouches for the
    /// account and nothing else (no name, no email: the profile asks for a username), so the screen
    /// promises only that.
    static func sharesText(_ provider: SocialProvider, brand: String) -> String {
        "\(provider.displayName) confirms it's you to \(brand). Your name and email stay with \(provider.displayName)."
    }

    private func drawAccounts(into canvas: inout Canvas, _ context: ScreenContext) {
        let name = provider.displayName
        let isConnecting = phase == .connecting
        if accounts.isEmpty {
            canvas.paragraph("\(name) has no accounts to offer on this device.", style: .muted)
        }
        for (index, account) in accounts.enumerated() {
            canvas.row(
                ListRow(
                    account.name, detail: account.email, control: .chevron, isSelected: index == selection,
                    isDisabled: isConnecting))
        }
        canvas.row(
            ListRow(
                "Simulate an error", detail: "\(name) fails to sign you in", control: .chevron,
                isSelected: selection == simulateErrorRow, isDisabled: isConnecting))
        if let error { canvas.paragraph(error, style: .danger) }
        if isConnecting {
            canvas.paragraph(isSignIn ? "Signing in with \(name)…" : "Connecting \(name)…", style: .muted)
        } else {
            canvas.paragraph(Self.sharesText(provider, brand: context.options.brand.name), style: .muted)
        }
    }
}
