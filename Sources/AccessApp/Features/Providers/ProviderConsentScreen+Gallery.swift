import AccessAPI
import Foundation
import TerminalKit

extension ProviderConsentScreen {
    static func sample(
        _ phase: Phase, provider: SocialProvider = .google, selection: Int = 0, error: String? = nil,
        methods: AuthMethods = SampleData.noPhone, options: AppOptions = .init(), now: Date
    ) -> AppState {
        let accounts = phase == .loading || phase == .unavailable ? [] : ProvidersGallery.accounts(provider)
        var state = SampleData.state(
            [
                ProviderConsentScreen(
                    provider: provider, phase: phase, accounts: accounts, selection: selection, error: error)
            ], methods: methods, now: now, options: options)
        let rows = HubScreen.rows(methods, platform: options.platform)
        let row = rows.firstIndex { $0.kind == (provider == .apple ? .apple : .google) } ?? 0
        state.stack[1] = AnyScreen(HubScreen(selection: row))
        return state
    }

    /// Continue with Apple/Google from the sign-in screen (signed out, nothing under it but sign-in).
    static func signingIn(_ phase: Phase, error: String? = nil, options: AppOptions = .init(), now: Date) -> AppState {
        var screen = ProviderConsentScreen(
            provider: .google, phase: phase, accounts: phase == .unavailable ? [] : ProvidersGallery.accounts(.google),
            error: error)
        screen.isSignIn = true
        var state = AppState(root: SignInScreen(), now: now, options: options)
        state.stack[0] = AnyScreen(SignInScreen.selecting(.google, state.context))
        state.stack.append(AnyScreen(screen))
        return state
    }

    public static var defaultGalleryState: String { "sign-in" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("provider-consent:sign-in", "Continue with Google: pick the account to sign in with") {
                signingIn(.choosing, now: $0)
            },
            GalleryEntry("provider-consent:signing-in", "Continue with Google: signing in") {
                signingIn(.connecting, now: $0)
            },
            GalleryEntry("provider-consent:no-sign-in", "Continue with Google against another backend") {
                signingIn(.unavailable, options: AppOptions(hasReferenceBackend: false), now: $0)
            },
            GalleryEntry("provider-consent:loading", "Connect Apple: the simulated provider's accounts loading") {
                sample(.loading, provider: .apple, now: $0)
            },
            GalleryEntry("provider-consent:accounts", "Connect Apple: pick an account, or simulate an error") {
                sample(.choosing, provider: .apple, now: $0)
            },
            GalleryEntry("provider-consent:google", "Connect Google: the second account selected") {
                sample(.choosing, selection: 1, methods: SampleData.phoneOnly, now: $0)
            },
            GalleryEntry("provider-consent:connecting", "Continue pressed: signing in and linking") {
                sample(.connecting, provider: .apple, now: $0)
            },
            GalleryEntry("provider-consent:provider-error", "Simulate an error: the provider failed, Enter retries") {
                sample(.providerError, provider: .apple, selection: 2, now: $0)
            },
            GalleryEntry("provider-consent:load-failed", "The accounts could not be fetched") {
                sample(.loadFailed(APIError.offline(reason: "sample").message), provider: .apple, now: $0)
            },
            GalleryEntry("provider-consent:taken", "409: that account is linked to another user (never says whose)") {
                sample(
                    .choosing, provider: .apple,
                    error: ProviderConsentScreen.takenText(.apple, brand: .default), now: $0)
            },
            GalleryEntry("provider-consent:not-reference", "Another backend: no simulated provider, only Back") {
                sample(.unavailable, provider: .apple, options: AppOptions(hasReferenceBackend: false), now: $0)
            },
        ]
    }
}
