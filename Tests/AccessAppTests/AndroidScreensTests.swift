import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Seed 000 hides Apple on Android (issue 48 items 5 and 18): nothing on Android lists Apple as a thing to
/// manage here, and an account that signs in only with Apple is not left without a way on.
@Suite struct AndroidScreensTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let android = AppOptions(platform: .android)

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

    @Test func settingsListsWhatTheHubShowsOnEachPlatform() {
        #expect(!text(AppState(now: start, options: android)).contains("Apple"))
        #expect(text(AppState(now: start, options: android)).contains("Phone number, email & password, Google"))
        #expect(text(AppState(now: start)).contains("Phone number, email & password, Apple, Google"))
    }

    @Test func onboardingsLastStepNamesNoAppleOnAndroid() {
        let done = SampleData.onboarding(
            OnboardingDoneScreen(), profile: SampleData.profile(.finish), now: start)
        var onAndroid = done
        onAndroid.options.platform = .android
        #expect(!text(onAndroid).contains("Apple"))
        #expect(text(done).contains("Apple and Google"))
    }

    /// `--scenario apple-only --platform android`: the hub showed phone, email and Google all unset and no
    /// Apple; it says Apple is linked, and offers nothing to change it.
    @Test func theHubOnAndroidSaysAppleIsLinkedWithoutOfferingIt() {
        let state = SampleData.state([], methods: SampleData.appleOnly, now: start, options: android)
        let screen = text(state)
        #expect(screen.contains("Apple is linked too: manage it on an iPhone or iPad."))
        let rows = HubScreen.rows(SampleData.appleOnly, platform: .android)
        #expect(!rows.contains { $0.kind == .apple })
        // Without Apple, or on iOS (where its row is there), nothing more is said.
        #expect(
            !text(SampleData.state([], methods: SampleData.phoneOnly, now: start, options: android)).contains(
                "Apple"))
        #expect(
            !text(SampleData.state([], methods: SampleData.appleOnly, now: start)).contains(
                "Apple is linked too: manage it on an iPhone or iPad."))
    }

    /// Signed out on Android, an Apple-only account had no Apple row and no support: Contact support is the
    /// sign-in screen's last row, on both platforms, saying on Android why it is there.
    @Test func signInOffersSupportAndOnAndroidSaysWhy() throws {
        let state = AppState(root: SignInScreen(), now: start, options: android)
        let screen = text(state)
        #expect(screen.contains("Contact support"))
        #expect(screen.contains("Signed up with Apple? Apple sign-in isn't available on Android"))
        #expect(!screen.contains("Continue with Apple"))

        let harness = ReducerHarness(state, exhaustivity: .off)
        for _ in SignInScreen.Row.allCases { harness.send(.input(.key(.down))) }
        harness.send(.input(.key(.enter)))
        #expect(
            harness.state.top
                == AnyScreen(ContactSupportScreen(ticket: SupportTicket(who: .signedOut, flow: ["sign-in"]))))

        // On iOS too, as the last row, within 80×24.
        let ios = text(AppState(root: SignInScreen(), now: start))
        #expect(ios.contains("Contact support"))
        #expect(!ios.contains("Signed up with Apple? Apple sign-in isn't available on Android"))
    }
}
