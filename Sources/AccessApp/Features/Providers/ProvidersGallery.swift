import AccessAPI
import Foundation

/// The worlds of this feature's gallery states.
enum ProvidersGallery {
    static let googleOnly = AuthMethods(
        userId: "usr_7G8H9K2L", role: .init(.athlete), phone: nil, email: nil, hasPassword: false, appleLinked: false,
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
