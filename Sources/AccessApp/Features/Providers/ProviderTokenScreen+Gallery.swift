import AccessAPI
import Foundation
import TerminalKit

extension ProviderTokenScreen {
    /// Signed out on the sign-in screen against another backend, the token screen over it.
    static func signingIn(_ screen: ProviderTokenScreen, now: Date) -> AppState {
        var state = AppState(root: SignInScreen(), now: now, options: AppOptions(hasReferenceBackend: false))
        state.stack.append(AnyScreen(screen))
        return state
    }

    /// Against another backend (no reference features): the screen over the hub and what opened it.
    static func sample(
        _ screen: ProviderTokenScreen, under: [any ScreenModel], methods: AuthMethods? = SampleData.noPhone,
        now: Date
    ) -> AppState {
        SampleData.state(under + [screen], methods: methods, now: now, options: AppOptions(hasReferenceBackend: false))
    }

    public static var defaultGalleryState: String { "sign-in" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("provider-token:sign-in", "Continue with Apple against another backend: paste an ID token") {
                signingIn(ProviderTokenScreen(provider: .apple, purpose: .signIn), now: $0)
            },
            GalleryEntry("provider-token:connect", "Connect Google against another backend, a token pasted") {
                sample(
                    ProviderTokenScreen(provider: .google, purpose: .connect, token: "eyJhbGciOiJSUzI1NiJ9.sample"),
                    under: [], methods: SampleData.phoneOnly, now: $0)
            },
            GalleryEntry("provider-token:reauth", "Verify it's you with Google before deleting: paste an ID token") {
                sample(
                    ProviderTokenScreen(provider: .google, purpose: .reauth(AnyFlow(DeleteAccountFlow()))),
                    under: [DeleteAccountScreen()], methods: SampleData.appleAndGoogle, now: $0)
            },
            GalleryEntry("provider-token:checking", "The token sent: the backend is checking it") {
                sample(
                    ProviderTokenScreen(
                        provider: .apple, purpose: .reauth(AnyFlow(DisconnectFlow(provider: .google))), isWorking: true),
                    under: [], methods: SampleData.appleAndGoogle, now: $0)
            },
            GalleryEntry("provider-token:refused", "401 provider_token_invalid: the server's words, the field empty") {
                signingIn(
                    ProviderTokenScreen(
                        provider: .apple, purpose: .signIn, error: "The Apple sign-in could not be verified."),
                    now: $0)
            },
        ]
    }
}
