import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// "Verify it's you": which methods show, where each leads, the 15-minute window and the
/// last-method warning.
@Suite struct ReauthPickerTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let tick = Effect.after(seconds: 1, action: .tick, id: .clock)
    let enterPhone = AnyScreen(EnterPhoneScreen(flow: .changePhone, current: SampleData.everyMethod.phone))

    func onPicker(
        selection: Int = 0, options: AppOptions = .init(), methods: AuthMethods = SampleData.everyMethod
    )
        -> AppState
    {
        SampleData.state(
            [ReauthPickerScreen(flow: .changePhone, selection: selection)], methods: methods, now: start,
            options: options)
    }

    func grant(_ method: ReauthMethod, at now: Date) -> ReauthGrant {
        ReauthGrant(reauthToken: "ra_fixture", expiresAt: now + 15 * 60, method: .init(method))
    }

    @Test func changingPhoneOffersEveryOtherMethodButNotThePhone() {
        let state = onPicker()
        let picker = ReauthPickerScreen(flow: .changePhone)
        #expect(
            picker.options(state.context) == [
                .method(.password), .method(.email), .method(.apple), .method(.google), .support,
            ])
        let text = render(state, size: .standard).text()
        #expect(!text.contains("Text me a code"))
        #expect(text.contains("Can't access any of these?"))
    }

    @Test func androidHidesApple() {
        let state = onPicker(options: AppOptions(platform: .android))
        #expect(
            ReauthPickerScreen(flow: .changePhone).options(state.context) == [
                .method(.password), .method(.email), .method(.google), .support,
            ])
        #expect(!render(state, size: .standard).text().contains("Apple"))
    }

    /// Issue 28 item 10: an Apple-only account deleting on Android listed nothing but "Can't access any of
    /// these?"; the backend wants a grant, so Apple, all it has, is offered after all.
    @Test func androidStillOffersAppleWhenItIsAllTheAccountHas() {
        let state = SampleData.state(
            [ReauthPickerScreen(flow: .deleteAccount)], methods: SampleData.appleOnly, now: start,
            options: AppOptions(platform: .android))
        #expect(ReauthPickerScreen(flow: .deleteAccount).options(state.context) == [.method(.apple), .support])
        #expect(render(state, size: .standard).text().contains("Continue with Apple"))
    }

    /// Issue 28 item 15: the number reads as everywhere else, "+995 511 100 000", not "+995511100000".
    @Test func theNumberIsFormattedAsOnEveryOtherScreen() {
        let state = SampleData.state([ReauthPickerScreen(flow: .deleteAccount)], now: start)
        let text = render(state, size: .standard).text()
        #expect(text.contains("+995 511 100 000"))
        #expect(!text.contains("+995511100000"))
    }

    @Test func onlyTheMethodsTheUserHasShow() {
        let state = onPicker(methods: SampleData.noPhone)
        #expect(
            ReauthPickerScreen(flow: .changePhone).options(state.context) == [
                .method(.password), .method(.email), .method(.google), .support,
            ])
    }

    @Test func passwordPushesThePasswordScreen() {
        let harness = ReducerHarness(onPicker())
        harness.send(.input(.key(.enter))) { $0.stack.append(AnyScreen(PasswordReauthScreen(flow: .changePhone))) }
    }

    @Test func emailSendsTheLinkThenShowsCheckYourEmail() {
        let harness = ReducerHarness(onPicker())
        harness.send(.input(.key(.down))) { $0.top = AnyScreen(ReauthPickerScreen(flow: .changePhone, selection: 1)) }
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ReauthEmailSend(), id: 1)]) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .changePhone, selection: 1, isWorking: true))
            $0.topAwaits(1, Endpoint.ReauthEmailSend.self)
        }
        harness.send(.input(.key(.enter)))  // already sending
        let sent = EmailLinkSent(sentTo: "jdoe@mail.com", expiresAt: start + 30 * 60)
        harness.send(.reply(sent, to: RequestID(1)), effects: [tick]) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .changePhone, selection: 1))
            $0.stack.append(
                AnyScreen(CheckEmailScreen(flow: .changePhone, sentTo: "jdoe@mail.com", sentAt: self.start)))
            $0.clockTicking = true
        }
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
        harness.advance(by: 1)
        harness.receive(.tick) { $0.clockTicking = false }
    }

    @Test func aFailedLinkIsShownOnThePicker() {
        let harness = ReducerHarness(onPicker(selection: 1))
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ReauthEmailSend(), id: 1)]) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .changePhone, selection: 1, isWorking: true))
            $0.topAwaits(1, Endpoint.ReauthEmailSend.self)
        }
        let failure = APIError.invalid(fieldErrors: [], message: "This account has no email address.")
        harness.send(.failure(failure, to: RequestID(1))) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .changePhone, selection: 1, error: failure.message))
        }
    }

    /// Issue 27: a 429 on "Email a link" counts down from the server's `retry_after` and the row is off
    /// until then; on the clock's other side it sends again.
    @Test func aLimitedLinkCountsDownAndItsRowIsOffUntilThen() {
        let harness = ReducerHarness(onPicker(selection: 1))
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ReauthEmailSend(), id: 1)]) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .changePhone, selection: 1, isWorking: true))
            $0.topAwaits(1, Endpoint.ReauthEmailSend.self)
        }
        let limit = RateLimit(target: ReauthMethod.email.rawValue, until: start + 2, message: "Too many links.")
        harness.send(
            .failure(.rateLimited(retryAfter: 2, message: "Too many links."), to: RequestID(1)), effects: [tick]
        ) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .changePhone, selection: 1, limit: limit))
            $0.clockTicking = true
        }
        #expect(PhoneFixture.rendered(harness.state).contains("Try again in 0:02"))
        harness.send(.input(.key(.enter)))  // the row is off: nothing is sent
        harness.advance(by: 1)
        harness.receive(.tick, effects: [tick])
        #expect(PhoneFixture.rendered(harness.state).contains("Try again in 0:01"))
        harness.send(.input(.key(.enter)))  // still off one second before the end
        harness.advance(by: 1)
        harness.receive(.tick) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .changePhone, selection: 1))
            $0.clockTicking = false
        }
        #expect(!PhoneFixture.rendered(harness.state).contains("Try again"))
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ReauthEmailSend(), id: 2)]) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .changePhone, selection: 1, isWorking: true))
            $0.topAwaits(2, Endpoint.ReauthEmailSend.self)
        }
    }

    /// A bare 429 on "Text me a code" whose wait is only in its `Retry-After` header: the same countdown,
    /// and only that row is off.
    @Test func aLimitedCodeTakesItsWaitFromRetryAfter() throws {
        let state = SampleData.state(
            [ReauthPickerScreen(flow: .deleteAccount)], methods: SampleData.everyMethod, now: start)
        let picker = ReauthPickerScreen(flow: .deleteAccount)
        let row = try #require(picker.options(state.context).firstIndex(of: .method(.phone)))
        let phone = try #require(SampleData.everyMethod.phone)
        let request = Endpoint.RequestOtp(phone: phone, purpose: .reauth, reauthToken: nil)
        let harness = ReducerHarness(
            SampleData.state(
                [ReauthPickerScreen(flow: .deleteAccount, selection: row)], methods: SampleData.everyMethod, now: start)
        )
        harness.send(.input(.key(.enter)), effects: [.request(request, id: 1)]) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .deleteAccount, selection: row, isWorking: true))
            $0.topAwaits(1, Endpoint.RequestOtp.self)
        }
        let bare = APIError.from(status: 429, body: Data("slow down".utf8), retryAfterHeader: "2")
        let limit = RateLimit(target: ReauthMethod.phone.rawValue, until: start + 2)
        harness.send(.failure(bare, to: RequestID(1)), effects: [tick]) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .deleteAccount, selection: row, limit: limit))
            $0.clockTicking = true
        }
        let text = PhoneFixture.rendered(harness.state)
        #expect(text.contains("Try again in 0:02"))
        harness.send(.input(.key(.enter)))  // off
        harness.advance(by: 1)
        harness.receive(.tick, effects: [tick])
        harness.send(.input(.key(.enter)))  // still off
        harness.advance(by: 1)
        harness.receive(.tick) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .deleteAccount, selection: row))
            $0.clockTicking = false
        }
        harness.send(.input(.key(.enter)), effects: [.request(request, id: 2)]) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .deleteAccount, selection: row, isWorking: true))
            $0.topAwaits(2, Endpoint.RequestOtp.self)
        }
    }

    @Test(arguments: [(SocialProvider.apple, 2), (SocialProvider.google, 3)])
    func socialConfirmsInASheetThenContinuesTheFlow(provider: SocialProvider, row: Int) {
        let harness = ReducerHarness(onPicker(selection: row))
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.socialReauth(provider)) }
        harness.send(
            .input(.key(.enter)),
            effects: [.request(ReauthBySocial(provider: provider), id: 1)]
        ) {
            $0.overlay = nil
            $0.topAwaits(1, ReauthBySocial.self)
        }
        let method: ReauthMethod = provider == .apple ? .apple : .google
        let grant = grant(method, at: start)
        harness.send(.reply(grant, to: RequestID(1))) {
            $0.reauth = grant
            $0.stack = [$0.stack[0], $0.stack[1], self.enterPhone]
        }
    }

    @Test func cancellingTheSocialSheetStaysOnThePicker() {
        let harness = ReducerHarness(onPicker(selection: 2))
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.socialReauth(.apple)) }
        harness.send(.input(.key(.down))) {
            var sheet = Sheet.socialReauth(.apple)
            sheet.sheet.move(by: 1)
            $0.overlay = .sheet(sheet)
        }
        harness.send(.input(.key(.enter))) { $0.overlay = nil }
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.socialReauth(.apple)) }
        harness.send(.input(.key(.escape))) { $0.overlay = nil }
    }

    @Test func aRefusedSocialSignInIsShownOnThePicker() {
        let harness = ReducerHarness(
            onPicker(selection: 3).topWaiting(ReauthBySocial.self, ReauthPickerScreen.Reply.social))
        let failure = APIError.invalid(fieldErrors: [], message: "Google sign-in didn't match this account.")
        harness.send(.failure(failure)) {
            $0.top = AnyScreen(ReauthPickerScreen(flow: .changePhone, selection: 3, error: failure.message))
        }
    }

    @Test func cantAccessAnyOfTheseOpensContactSupport() {
        let harness = ReducerHarness(onPicker(selection: 4))
        harness.send(.input(.key(.down)))  // the last row
        harness.send(
            .input(.key(.enter)), effects: [.request(LoadLastError(), id: harness.state.nextRequestID)]
        ) {
            $0.supportPushed(.user(SampleData.everyMethod.userId))
        }
    }

    @Test func withinFifteenMinutesASecondChangeSkipsThePickerAndAfterwardsItIsBack() {
        let harness = ReducerHarness(SampleData.state([], now: start))
        harness.send(.input(.key(.enter))) { $0.stack.append(AnyScreen(ReauthPickerScreen(flow: .changePhone))) }
        harness.send(.input(.key(.down))) { $0.top = AnyScreen(ReauthPickerScreen(flow: .changePhone, selection: 1)) }
        harness.send(.input(.key(.down))) { $0.top = AnyScreen(ReauthPickerScreen(flow: .changePhone, selection: 2)) }
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.socialReauth(.apple)) }
        harness.send(
            .input(.key(.enter)), effects: [.request(ReauthBySocial(provider: .apple), id: 1)]
        ) {
            $0.overlay = nil
            $0.topAwaits(1, ReauthBySocial.self)
        }
        let grant = grant(.apple, at: start)
        harness.send(.reply(grant, to: RequestID(1))) {
            $0.reauth = grant
            $0.stack = [$0.stack[0], $0.stack[1], self.enterPhone]
        }
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }

        // A second sensitive action inside the window: straight to the flow.
        harness.advance(by: 15 * 60 - 1)
        harness.send(.input(.key(.enter))) { $0.stack.append(self.enterPhone) }
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }

        // The window is over: verify again.
        harness.advance(by: 1)
        #expect(harness.now >= grant.expiresAt)
        harness.send(.input(.key(.enter))) { $0.stack.append(AnyScreen(ReauthPickerScreen(flow: .changePhone))) }
    }

    /// Issue 25, defect 8: a window opened with the phone cannot verify a phone change, so the picker
    /// comes back instead of a change the backend would refuse.
    @Test func aWindowOpenedWithThePhoneDoesNotSkipThePickerForAPhoneChange() {
        var state = SampleData.state([], now: start)
        state.reauth = grant(.phone, at: start)
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.enter))) { $0.stack.append(AnyScreen(ReauthPickerScreen(flow: .changePhone))) }
    }

    @Test func phoneAsTheOnlyMethodWarnsInsteadOfThePickerAndCanContinueWithoutReauth() {
        let harness = ReducerHarness(SampleData.state([], methods: SampleData.phoneOnly, now: start))
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.lastMethod(.changePhone)) }
        harness.send(.input(.key(.down))) { $0.overlay = .sheet(Sheet.lastMethod(.changePhone).onDestructive) }
        harness.send(.input(.key(.enter))) {
            $0.overlay = nil
            $0.stack.append(self.enterPhone)
        }
        #expect(harness.state.reauth == nil)
    }

    @Test func theLastMethodWarningCanBeCancelled() {
        let harness = ReducerHarness(SampleData.state([], methods: SampleData.phoneOnly, now: start))
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.lastMethod(.changePhone)) }
        harness.send(.input(.key(.down))) { $0.overlay = .sheet(Sheet.lastMethod(.changePhone).onDestructive) }
        harness.send(.input(.key(.down))) {
            var sheet = Sheet.lastMethod(.changePhone)
            sheet.sheet.move(by: 2)
            $0.overlay = .sheet(sheet)
        }
        harness.send(.input(.key(.enter))) { $0.overlay = nil }
    }

    /// Issue 28 item 12: the warning recommends adding another method first, and offers it (opened on
    /// it): a phone-only account adds an email and password, with no verification.
    @Test func theLastMethodWarningOffersToAddAnotherMethod() {
        let harness = ReducerHarness(SampleData.state([], methods: SampleData.phoneOnly, now: start))
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.lastMethod(.changePhone)) }
        #expect(render(harness.state, size: .standard).text().contains("Add email & password"))
        harness.send(.input(.key(.enter))) {
            $0.overlay = nil
            $0.stack.append(AnyScreen(NewEmailScreen(mode: .add)))
        }
    }

    @Test func addingAPhoneNeedsNoVerification() {
        let harness = ReducerHarness(SampleData.state([], methods: SampleData.noPhone, now: start))
        harness.send(.input(.key(.enter))) {
            $0.stack.append(AnyScreen(EnterPhoneScreen(flow: .addPhone, current: nil)))
        }
    }

    /// `--region DE`: a phone being added starts at Germany, as sign-in's does; a change keeps the current
    /// number's country (issue 28 item 20).
    @Test func addingAPhoneStartsAtTheDevicesRegion() {
        var state = SampleData.state([], methods: SampleData.noPhone, now: start)
        state.options.deviceRegion = "DE"
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.enter))) {
            $0.stack.append(AnyScreen(EnterPhoneScreen(flow: .addPhone, current: nil, countryISO: "DE")))
        }
        #expect(harness.state.top.as(EnterPhoneScreen.self)?.countryISO == "DE")
    }

    @Test func anEmailWithoutPasswordMakesThePhoneNotTheOnlyMethod() {
        // The shared rule (AccessCore.SignInMethods) counts the email by itself.
        var methods = SampleData.phoneOnly
        methods.email = "jdoe@mail.com"
        var state = SampleData.state([], methods: methods, now: start)
        state.reauth = nil
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.enter))) { $0.stack.append(AnyScreen(ReauthPickerScreen(flow: .changePhone))) }
        #expect(PhoneFixture.rendered(harness.state).contains("Email a link"))
    }
}
