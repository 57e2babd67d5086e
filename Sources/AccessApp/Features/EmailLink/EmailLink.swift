/// The emailed-link screens shared by every flow that waits for a link (seed 000's magic links):
/// "Check your email", "Verifying your link…" and "This link has expired". What a link is for —
/// how it is sent again, how opening it is checked, what follows — is its `LinkPurpose`, declared
/// by the feature that sends it (re-auth in Reauth/, email change and add in Email/). A link that
/// arrives with nothing waiting for it finds its way through `LinkRouter`; a pasted one is read by
/// `PastedLink`.
enum EmailLinkFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        CheckEmailScreen.self, VerifyingLinkScreen.self, LinkExpiredScreen.self, CheckingLinkScreen.self,
    ]
}
