import AccessAPI
import Foundation
import TerminalKit

/// Apple or Google against a backend that is not the reference one: there is no simulated provider
/// to stand in for the provider's own sign-in, so the person pastes the provider's ID token (a QA team
/// mints one with its own test tooling) and the app sends it to the contract's call as that sign-in
/// would: sign in, connect, or "Verify it's you". The token is a credential: masked, typed into the
/// field only, emptied when sent, and carried to the request as a `Secret`.
public struct ProviderTokenScreen: ScreenModel {
    public enum Purpose: Equatable, Sendable {
        /// Continue with Apple/Google on the sign-in screen.
        case signIn
        /// The hub's Connect pill.
        case connect
        /// "Verify it's you" with the provider, before `flow` (disconnect, delete, …).
        case reauth(AnyFlow)
    }

    public var provider: SocialProvider
    public var purpose: Purpose
    public var field: TextField
    public var isWorking: Bool

    public init(
        provider: SocialProvider, purpose: Purpose, token: String = "", isWorking: Bool = false, error: String? = nil
    ) {
        self.provider = provider
        self.purpose = purpose
        field = TextField(
            label: "\(provider.displayName) ID token", value: token, isMasked: true, error: error, isFocused: true,
            maxLength: Self.maxLength)
        self.isWorking = isWorking
    }

    public var id: String { "provider-token" }

    /// The contract's bound on `id_token`: a runaway paste stops there.
    static let maxLength = 4096

    public var takesText: Bool { true }
    public var secretEntry: SecretEntry? { .password }

    static func explanation(_ provider: SocialProvider) -> String {
        let name = provider.displayName
        return
            "This backend has no stand-in for \(name), and \(name)'s own sign-in can't run in a terminal. Paste an ID token for \(name), minted by your own test tooling: it goes to the backend as \(name)'s sign-in would send it."
    }

    var title: String {
        switch purpose {
        case .signIn: "Continue with \(provider.displayName)"
        case .connect: "Connect \(provider.displayName)"
        case .reauth: "Verify it's you"
        }
    }

    public enum Intent: Sendable { case send }
    public enum Reply: Equatable, Sendable {
        case signIn(Result<SignedIn, APIError>)
        case connect(Result<AuthMethods, APIError>)
        case reauth(Result<ReauthGrant, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        isWorking ? [] : [KeyBinding([.enter], "Send token", .send)]
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking else { return event.isTextEditing ? [] : nil }
        let handled = field.handle(event)
        if handled { field.error = nil }
        return handled ? [] : nil
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        let token = field.value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !isWorking else { return [] }
        guard !token.isEmpty else {
            field.error = "Paste the \(provider.displayName) ID token first."
            return []
        }
        field.setValue("")
        field.error = nil
        isWorking = true
        let secret = Secret(token)
        switch purpose {
        case .signIn: return [.call(SignInWithProviderToken(provider: provider, idToken: secret), Reply.signIn)]
        case .connect: return [.call(Endpoint.ConnectProvider(provider: provider, idToken: token), Reply.connect)]
        case .reauth: return [.call(Endpoint.ReauthSocial(provider: provider, idToken: token), Reply.reauth)]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .signIn(.success(let signedIn)):
            return [.signedIn(signedIn)]
        case .connect(.success(let methods)):
            return [
                .setMethods(methods), .popTo(HubScreen.self),
                .showToast(ProviderConsentScreen.connectedText(provider)),
            ]
        case .reauth(.success(let grant)):
            guard case .reauth(let flow) = purpose else { return [] }
            return [.grantReauth(grant), .continueFlow(flow)]
        case .connect(.failure(.server(409, ErrorCode.providerTaken.rawValue, _))):
            field.error = ProviderConsentScreen.takenText(provider, brand: context.options.brand)
        case .signIn(.failure(let failure)), .connect(.failure(let failure)), .reauth(.failure(let failure)):
            // A refused token (401 provider_token_invalid) in the server's words; the field is empty for
            // the next paste.
            field.error = failure.message
        }
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title(title)
        if case .reauth(let flow) = purpose { canvas.paragraph(flow.base.pickerExplanation) }
        canvas.paragraph(Self.explanation(provider), style: .muted)
        canvas.field(field)
        if isWorking { canvas.paragraph("Checking the token with the backend…", style: .muted) }
    }
}
