import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// The hub's Apple and Google rows (seeds 000/001): disconnect a connected one (a sheet, then
/// "Verify it's you" without that provider), the hard block when it is the only sign-in method,
/// and connect one through the reference backend's simulated consent screen.
enum ProvidersFeature: Feature {
    static let screens: [any ScreenModel.Type] = [DisconnectingScreen.self, ProviderConsentScreen.self]
    static var sheetGallery: [GalleryEntry] { Sheet.providersGallery }
}

extension SocialProvider {
    /// "Apple", "Google": how the screens name the provider.
    var displayName: String { self == .apple ? "Apple" : "Google" }
    var signInMethod: SignInMethod { self == .apple ? .apple : .google }
    var reauthMethod: ReauthMethod { self == .apple ? .apple : .google }
}

enum Providers {
    /// Enter on the hub's Apple or Google row: the disconnect sheet, the hard block when the provider
    /// is all the account has, or the consent screen for one not connected.
    static func open(_ provider: SocialProvider, _ context: ScreenContext) -> [Command] {
        guard let methods = context.methods else { return [] }
        guard methods.signInMethods.has(provider.signInMethod) else {
            return [.push(ProviderConsentScreen(connecting: provider, context))]
        }
        if methods.signInMethods.isOnly(provider.signInMethod) { return [.showSheet(.cantDisconnect(provider))] }
        return [.showSheet(.disconnect(provider, then: Reauth.verifyThen(DisconnectFlow(provider: provider), context)))]
    }
}

/// Disconnecting Apple or Google: "Verify it's you" with every method but that provider, then the
/// request, on a screen that shows it running.
public struct DisconnectFlow: SensitiveFlow {
    public var provider: SocialProvider

    public init(provider: SocialProvider) { self.provider = provider }

    public var target: ReauthMethod? { provider.reauthMethod }

    public var pickerExplanation: String {
        "To disconnect \(provider.displayName), confirm with one of your active sign-in methods."
    }

    public func start(_ context: ScreenContext) -> [Command] {
        [.popTo(HubScreen.self), .push(DisconnectingScreen(provider: provider))]
    }
}

// MARK: - Requests

struct DisconnectProvider: APIRequest {
    var provider: SocialProvider
    var reauthToken: String?
    func perform(_ api: APIContext) async throws -> AuthMethods {
        try await api.client.disconnect(provider, reauthToken: reauthToken)
    }
}

/// The accounts the simulated provider offers on this "device" (reference backend only).
struct LoadProviderAccounts: APIRequest {
    var provider: SocialProvider
    func perform(_ api: APIContext) async throws -> [ProviderAccount] {
        try await api.client.adminProviderAccounts(provider)
    }
}

/// The simulated provider's sign-in for the chosen account, then the link: one request, so the
/// provider's id token never sits in the app's state or its replies.
struct ConnectProviderAccount: APIRequest {
    var provider: SocialProvider
    var subject: String
    func perform(_ api: APIContext) async throws -> AuthMethods {
        let token = try await api.client.adminProviderToken(provider, subject: subject)
        return try await api.client.connect(provider, idToken: token.idToken)
    }
}

// MARK: - Sheets

extension Sheet {
    /// Seed 001's disconnect sheet; `then` is "Verify it's you" or, inside its window, the flow itself.
    static func disconnect(_ provider: SocialProvider, then: [Command]) -> Sheet {
        let name = provider.displayName
        return Sheet(
            title: "Disconnect \(name)?",
            body: "You'll no longer be able to sign in with \(name). You can reconnect it later at any time.",
            actions: [(.init("Disconnect", isDestructive: true), then), (.init("Cancel"), [])])
    }

    /// The hard block (seed 001): the provider is the only sign-in method, so there is no override.
    static func cantDisconnect(_ provider: SocialProvider) -> Sheet {
        let name = provider.displayName
        return Sheet(
            title: "Can't disconnect \(name)",
            body:
                "This is your only sign-in method. Add a phone number, email, or another provider first — then you can disconnect \(name).",
            actions: [(.init("Got it"), [])])
    }

    static var providersGallery: [GalleryEntry] {
        [
            GalleryEntry("hub:disconnect-google", "Disconnect Google? (other methods remain)") {
                ProvidersGallery.hubSheet(.google, methods: SampleData.everyMethod, now: $0)
            },
            GalleryEntry("hub:disconnect-apple", "Disconnect Apple? (other methods remain)") {
                ProvidersGallery.hubSheet(.apple, methods: SampleData.everyMethod, now: $0)
            },
            GalleryEntry("hub:cant-disconnect-apple", "Hard block: Apple is the only sign-in method") {
                ProvidersGallery.hubSheet(.apple, methods: SampleData.appleOnly, now: $0)
            },
            GalleryEntry("hub:cant-disconnect-google", "Hard block: Google is the only sign-in method") {
                ProvidersGallery.hubSheet(.google, methods: ProvidersGallery.googleOnly, now: $0)
            },
        ]
    }
}

/// The worlds of this feature's gallery states.
enum ProvidersGallery {
    static let googleOnly = AuthMethods(
        userId: "usr_7G8H9K2L", role: .athlete, phone: nil, email: nil, hasPassword: false, appleLinked: false,
        googleLinked: true, passwordChangedAt: nil)

    /// Two accounts on this "device", as the simulated provider lists them.
    static func accounts(_ provider: SocialProvider) -> [ProviderAccount] {
        provider == .apple
            ? [
                ProviderAccount(subject: "apple_jdoe", email: "jdoe@icloud.com", name: "Jane Doe"),
                ProviderAccount(subject: "apple_coach", email: "coach.jane@icloud.com", name: "Coach Jane"),
            ]
            : [
                ProviderAccount(subject: "google_jdoe", email: "jdoe@gmail.com", name: "Jane Doe"),
                ProviderAccount(subject: "google_work", email: "jane.doe@studio.fit", name: "Jane Doe"),
            ]
    }

    /// The hub with the provider's row selected and the sheet Enter opens there, its actions real.
    static func hubSheet(_ provider: SocialProvider, methods: AuthMethods, now: Date) -> AppState {
        var state = SampleData.state([], methods: methods, now: now)
        let rows = HubScreen.rows(methods, platform: state.options.platform)
        let row = rows.firstIndex { $0.kind == (provider == .apple ? .apple : .google) } ?? 0
        state.top = AnyScreen(HubScreen(selection: row))
        for case .showSheet(let sheet) in Providers.open(provider, state.context) { state.overlay = .sheet(sheet) }
        return state
    }
}
