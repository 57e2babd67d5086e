import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 27: a value of an extensible response enum that this app does not know gets an honest fallback
/// on screen, never "The server's answer could not be read.": a delete blocker in the server's words, an
/// onboarding step by the server's next step or Settings (said so), a link of an unknown kind said so and
/// one in an unknown state opened, a grant of an unknown method left to the server, a sign-in code of an
/// unknown channel worded by the channel asked, an unknown access level without the limited banner.
@Suite struct ExtensibleEnumScreenTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let tick = Effect.after(seconds: 1, action: .tick, id: .clock)
    let token = "lk_AbCdEfGhIjKlMnOpQrStUv"

    func text(_ state: AppState, size: Size = .standard) -> String { render(state, size: size).text() }

    func flat(_ screen: String) -> String {
        screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    func requests(_ effects: [Effect]) -> [AnyRequest] {
        effects.compactMap { effect in
            if case .request(let request, _) = effect { return request }
            return nil
        }
    }

    func requestID(_ effects: [Effect]) -> RequestID {
        effects.lazy.compactMap { effect -> RequestID? in
            if case .request(_, let id) = effect { return id }
            return nil
        }.first ?? RequestID(-1)
    }

    // MARK: - Delete blockers

    @Test func aBlockerOfAnUnknownKindShowsTheServersTitleAndMessage() {
        let harness = ReducerHarness(SampleData.state([DeleteAccountScreen(selection: .delete)], now: start))
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.DeletePreflight(), id: 1)]) {
            $0.top = AnyScreen(DeleteAccountScreen(selection: .delete, isChecking: true))
            $0.topAwaits(1, Endpoint.DeletePreflight.self)
        }
        let blockers = [SampleData.upcomingBookings(at: start), SampleData.openDispute()]
        harness.send(.reply(DeletePreflight(blockers: blockers), to: RequestID(1))) {
            $0.top = AnyScreen(DeleteAccountScreen(selection: .delete))
            $0.stack.append(AnyScreen(DeleteBlockersScreen(blockers: blockers)))
        }
        let screen = flat(text(harness.state, size: Size(cols: 80, rows: 40)))
        #expect(screen.contains("Cancel your upcoming bookings first"))
        #expect(screen.contains("Resolve your open dispute first"))
        #expect(screen.contains("A payment dispute on your account is still open."))
        #expect(screen.contains("Contact support"))
        #expect(!screen.contains("could not be read"))
        #expect(!harness.state.stack.contains { $0.is(ScreenType(ReauthPickerScreen.self)) })
    }

    @Test func aBlockerOfAnUnknownKindWithoutWordsNamesTheServersKind() {
        let state = SampleData.state(
            [DeleteAccountScreen(), DeleteBlockersScreen(blockers: [SampleData.bareUnknownBlocker()])], now: start)
        let screen = flat(text(state))
        #expect(screen.contains(DeleteBlockersScreen.unknownHeading))
        #expect(screen.contains(DeleteBlockersScreen.unknownText("account_hold")))
        #expect(screen.contains("Contact support"))
    }

    // MARK: - Onboarding

    func profile(step: String, next: String? = nil) -> Profile {
        Profile(
            username: "jdoe", onboardingStep: .init(rawValue: step),
            onboardingNextStep: next.map { .init(rawValue: $0) },
            emailVerified: true)
    }

    @Test func anUnknownStepGoesToTheServersNextStepWhenItKnowsIt() {
        #expect(Onboarding.screen(for: profile(step: "choose_sport", next: "recovery_email")) is RecoveryEmailScreen)
        #expect(Onboarding.screen(for: profile(step: "choose_sport", next: "finish")) is OnboardingDoneScreen)
        // Else Settings: no next step, one it does not know either, or complete.
        #expect(Onboarding.screen(for: profile(step: "choose_sport")) is SettingsScreen)
        #expect(Onboarding.screen(for: profile(step: "choose_sport", next: "pick_avatar")) is SettingsScreen)
        #expect(Onboarding.screen(for: profile(step: "choose_sport", next: "complete")) is SettingsScreen)
        // A step it knows is unchanged, whatever the next step says.
        #expect(Onboarding.screen(for: profile(step: "profile", next: "finish")) is ProfileScreen)
        #expect(Onboarding.unknownStepNote(profile(step: "profile")) == nil)
    }

    @Test func savingTheProfileIntoAnUnknownStepLandsInSettingsAndSaysSo() {
        let unknown = profile(step: "choose_sport")
        let note =
            "This server asks for an onboarding step this app doesn't know (\"choose_sport\"), so you're in Settings."
        #expect(Onboarding.unknownStepNote(unknown) == note)
        let harness = ReducerHarness(
            SampleData.onboarding(
                ProfileScreen(username: "jdoe", focus: .cta, availability: .available("jdoe")),
                profile: SampleData.profile(.profile, username: nil), now: start))
        harness.send(
            .input(.key(.enter)), effects: [.request(Endpoint.UpdateProfile(username: "jdoe", photo: nil), id: 1)]
        ) {
            $0.top = AnyScreen(
                ProfileScreen(username: "jdoe", focus: .cta, availability: .available("jdoe"), isWorking: true))
            $0.topAwaits(1, Endpoint.UpdateProfile.self)
        }
        harness.send(
            .reply(unknown, to: RequestID(1)),
            effects: [.after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast)]
        ) {
            $0.profile = unknown
            $0.stack = [AnyScreen(SettingsScreen())]
            $0.toast = Toast(note, shownAt: self.start)
        }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
        // Settings keeps saying it while the server does.
        #expect(flat(text(harness.state)).contains(note))
    }

    @Test func anUnknownStepWithAKnownNextStepSaysItWentOn() {
        let unknown = profile(step: "choose_sport", next: "recovery_email")
        let commands = Onboarding.advance(to: unknown)
        #expect(
            commands == [
                .setProfile(unknown), .resetStack(AnyScreen(RecoveryEmailScreen())),
                .showToast(
                    "This server asks for an onboarding step this app doesn't know (\"choose_sport\"), so you're on its next one."
                ),
            ])
    }

    // MARK: - Links

    func open(_ answer: LinkInfo) -> (AppState, [Effect]) {
        let harness = ReducerHarness(SampleData.state([SettingsScreen()], now: start), exhaustivity: .off)
        let asked = harness.send(.openLink(token))
        #expect(requests(asked) == [AnyRequest(Endpoint.InspectLink(token: token))])
        let effects = harness.send(.reply(answer, to: requestID(asked)))
        return (harness.state, effects)
    }

    @Test func aLinkOfAnUnknownKindSaysTheAppCannotOpenIt() {
        let (state, effects) = open(
            LinkInfo(kind: .init(rawValue: "magic_login"), state: .init(.live), expiresAt: start))
        #expect(requests(effects).isEmpty)
        #expect(state.top.as(CheckingLinkScreen.self)?.error == LinkRouter.unknownKindText("magic_login"))
        #expect(flat(text(state)).contains("the server calls it \"magic_login\""))
    }

    @Test func aLinkInAnUnknownStateIsOpenedAndItsAnswerShown() {
        let (state, effects) = open(
            LinkInfo(kind: .init(.register), state: .init(rawValue: "quarantined"), expiresAt: start))
        #expect(requests(effects) == [AnyRequest(Endpoint.ConfirmRegistration(token: token))])
        #expect(state.top.as(VerifyingLinkScreen.self)?.link == AnyLinkPurpose(RegistrationLink()))
    }

    // MARK: - Re-auth, sign-in codes, access

    @Test func aGrantOfAnUnknownMethodGoesWithTheChangeForTheServerToJudge() {
        var state = SampleData.state([HubScreen()], now: start)
        state.reauth = ReauthGrant(
            reauthToken: "ra_fixture", expiresAt: start + 900, method: .init(rawValue: "security_key"))
        let flow = DisconnectFlow(provider: .apple)
        #expect(Reauth.verifyThen(flow, state.context) == [.continueFlow(AnyFlow(flow))])
        // A known method that may not verify the flow (Apple disconnecting itself) still asks first.
        state.reauth = ReauthGrant(reauthToken: "ra_fixture", expiresAt: start + 900, method: .init(.apple))
        #expect(Reauth.verifyThen(flow, state.context) == [.push(ReauthPickerScreen(flow: AnyFlow(flow)))])
    }

    @Test func aSignInCodeOfAnUnknownChannelIsWordedByTheChannelAsked() {
        let challenge = SignInChallenge(
            challengeId: "ch_1", channel: .init(rawValue: "whatsapp"), destination: "jdoe@mail.com",
            expiresAt: start + 600, resendAfter: start + 30)
        #expect(SignInCodeChallenge(challenge, asked: .email).channel == .email)
        #expect(SignInCodeChallenge(challenge, asked: .phone).channel == .phone)
        #expect(EnterCodeScreen(signIn: challenge, channel: .email).shownDestination == "jdoe@mail.com")
    }

    @Test func anUnknownAccessLevelShowsNoLimitedBanner() {
        var state = SampleData.state([SettingsScreen()], now: start)
        state.profile = Profile(
            onboardingStep: .init(.complete), emailVerified: true, access: .init(rawValue: "read_only"))
        #expect(!LimitedAccess.applies(state.context))
        #expect(!text(state).contains(LimitedAccess.bannerText))
        state.profile?.access = .init(.limited)
        #expect(LimitedAccess.applies(state.context))
    }
}
