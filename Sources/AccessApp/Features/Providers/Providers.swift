import AccessAPI
import AccessCore

/// The hub's Apple and Google rows (seeds 000/001): disconnect a connected one (a sheet, then
/// "Verify it's you" without that provider), the hard block when it is the only sign-in method,
/// and connect one through the reference backend's simulated consent screen.
enum ProvidersFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        DisconnectingScreen.self, ProviderConsentScreen.self, ProviderTokenScreen.self,
    ]
    static var sheetGallery: [GalleryEntry] { Sheet.providersGallery }
}

extension SocialProvider {
    /// "Apple", "Google": how the screens name the provider.
    var displayName: String { self == .apple ? "Apple" : "Google" }
    var signInMethod: SignInMethod { self == .apple ? .apple : .google }
    var reauthMethod: ReauthMethod { self == .apple ? .apple : .google }
}

enum Providers {
    /// Continue with Apple/Google: the reference backend's stand-in for the provider, else the pasted ID token.
    static func signIn(with provider: SocialProvider, _ context: ScreenContext) -> any ScreenModel {
        guard context.options.hasReferenceBackend else {
            return ProviderTokenScreen(provider: provider, purpose: .signIn)
        }
        return ProviderConsentScreen(signingInWith: provider, context)
    }

    /// Enter on the hub's Apple or Google row: the disconnect sheet, the hard block when the provider
    /// is all the account has, or the consent screen for one not connected.
    static func open(_ provider: SocialProvider, _ context: ScreenContext) -> [Command] {
        guard let methods = context.methods else { return [] }
        guard methods.signInMethods.has(provider.signInMethod) else {
            guard context.options.hasReferenceBackend else {
                return [.push(ProviderTokenScreen(provider: provider, purpose: .connect))]
            }
            return [.push(ProviderConsentScreen(connecting: provider, context))]
        }
        if methods.signInMethods.isOnly(provider.signInMethod) { return [.showSheet(.cantDisconnect(provider))] }
        return [.showSheet(.disconnect(provider, then: Reauth.verifyThen(DisconnectFlow(provider: provider), context)))]
    }
}
