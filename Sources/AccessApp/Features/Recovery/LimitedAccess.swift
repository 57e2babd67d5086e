import AccessAPI

/// Limited access after a recovery (seed 003): the account's profile and settings work; every other
/// change waits until a phone is verified again. One check and one sheet, used by every screen that
/// offers a change and by the reducer for the server's 403 `limited_access`.
enum LimitedAccess {
    static func applies(_ context: ScreenContext) -> Bool { context.profile?.access?.known == .limited }

    static func isRefusal(_ error: APIError) -> Bool {
        if case .server(403, ErrorCode.limitedAccess.rawValue, _) = error { return true }
        return false
    }

    static let bannerText = "Limited access: verify your phone number to use everything again"
    static let sheetTitle = "Verify your phone first"
    static let sheetBody =
        "You got back in with your recovery email. To change sign-in methods or delete your account, verify your phone number first."
    static let restoredText = "Your account is fully restored. Other devices were signed out."

    /// Re-verification starts on the number screen: the limited session itself is the proof, so no
    /// "Verify it's you" comes first.
    static var verifyPhone: Command { .continueFlow(AnyFlow(PhoneFlow.reverifyPhone)) }
}

extension Sheet {
    static var limitedAccess: Sheet {
        Sheet(
            title: LimitedAccess.sheetTitle, body: LimitedAccess.sheetBody,
            actions: [(.init("Verify your phone"), [LimitedAccess.verifyPhone]), (.init("Not now"), [])])
    }

    static var limitedAccessGallery: [GalleryEntry] {
        [
            GalleryEntry("hub:limited-access-sheet", "A change in limited access: verify the phone first") { now in
                var state = SampleData.limitedState([HubScreen()], now: now)
                state.overlay = .sheet(.limitedAccess)
                return state
            }
        ]
    }
}
