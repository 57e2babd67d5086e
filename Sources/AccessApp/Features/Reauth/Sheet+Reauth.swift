import AccessAPI
import TerminalKit

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
