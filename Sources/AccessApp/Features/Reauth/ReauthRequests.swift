import AccessAPI
import TerminalKit

/// "Verify it's you" and the ways through it (seed 000).
enum ReauthFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        ReauthPickerScreen.self, PasswordReauthScreen.self,
    ]
}

struct ReauthByPassword: APIRequest {
    var password: Secret
    func perform(_ api: APIContext) async throws -> ReauthGrant {
        try await api.client.reauthenticate(password: password.value)
    }
}

struct SendReauthLink: APIRequest {
    func perform(_ api: APIContext) async throws -> EmailLinkSent { try await api.client.sendReauthLink() }
}

struct ConfirmReauthLink: APIRequest {
    var token: String
    func perform(_ api: APIContext) async throws -> ReauthGrant {
        try await api.client.confirmReauthLink(token: token)
    }
}

/// The simulated Apple/Google sign-in: the reference backend mints the provider's token, then
/// the app re-authenticates with it.
struct ReauthBySocial: APIRequest {
    var provider: SocialProvider
    func perform(_ api: APIContext) async throws -> ReauthGrant {
        let token = try await api.client.adminProviderToken(provider)
        return try await api.client.reauthenticate(provider: provider, idToken: token.idToken)
    }
}

/// The re-auth link: opening it verifies the user, and the flow that asked goes on.
struct ReauthLink: LinkPurpose {
    public var flow: AnyFlow
    public init(flow: AnyFlow) { self.flow = flow }
    public var resend: SendReauthLink? { SendReauthLink() }
    public func confirm(token: String) -> ConfirmReauthLink { ConfirmReauthLink(token: token) }
    public func confirmed(_ grant: ReauthGrant, _ context: ScreenContext) -> [Command] {
        [.grantReauth(grant), .continueFlow(flow)]
    }
    public func accepts(_ message: OutboxMessage) -> Bool { message.outboxKind == .reauthLink }
    public var canEditAddress: Bool { false }
    public var linkPath: String { "reauth" }
}

extension AnyLinkPurpose {
    public static func reauth(_ flow: AnyFlow) -> AnyLinkPurpose { AnyLinkPurpose(ReauthLink(flow: flow)) }
}

extension Sheet {
    /// The simulated Apple/Google sign-in used to verify it's you; its reply goes to the picker below.
    public static func socialReauth(_ provider: SocialProvider) -> Sheet {
        let name = provider == .apple ? "Apple" : "Google"
        return Sheet(
            title: "Continue with \(name)",
            body: "\(name) asks you to sign in again to confirm it's you. (The reference backend plays \(name) here.)",
            actions: [
                (.init("Continue"), [.request(ReauthBySocial(provider: provider), tag: ReauthPickerScreen.socialTag)]),
                (.init("Cancel"), []),
            ])
    }
}
