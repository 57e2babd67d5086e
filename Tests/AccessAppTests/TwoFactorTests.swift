import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 31: two-factor in the app. The hub's row, set-up (QR code, key, first code, recovery codes),
/// managing it, the second step of a sign-in, "Authenticator app" in "Verify it's you", and the palette's
/// current code.
@Suite struct TwoFactorTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    var grant: ReauthGrant { ReauthGrant(reauthToken: "ra_fixture", expiresAt: now + 900, method: .init(.password)) }

    func text(_ state: AppState, size: Size = .standard) -> String { render(state, size: size).text() }

    func hub(_ methods: AuthMethods, selection: Int) -> AppState {
        var state = SampleData.state([], methods: methods, now: now)
        state.top = AnyScreen(HubScreen(selection: selection))
        return state
    }

    /// The two-factor row's index on iOS: four methods, then Active sessions.
    let twoFactorRow = 6

    func session(_ id: String) -> SessionTokens {
        SessionTokens(
            userId: "usr_athlete", accessToken: "at_\(id)", accessExpiresAt: now + 3600, refreshToken: "rt_\(id)",
            refreshExpiresAt: now + 7 * 86_400)
    }

    func signedIn(required: Bool, profile: Profile? = nil) -> SignedIn {
        SignedIn(
            session: session(required ? "aal1" : "aal2"), deviceId: "dvc_1", isNewUser: false,
            authMethods: TwoFactorScreen.methodsOn, profile: profile,
            assuranceLevel: .init(required ? .aal1 : .aal2), secondFactorRequired: required)
    }

    // MARK: - The hub's row

    /// Before, the row said "Soon" and could not be chosen.
    @Test func theHubRowSaysOnOrOffFromTheMethods() {
        let off = text(hub(SampleData.everyMethod, selection: 0))
        #expect(off.contains("Two-factor authentication"))
        #expect(off.contains("Extra layer of security"))
        #expect(off.contains("Off"))
        #expect(!off.contains("Soon"))
        let on = text(hub(TwoFactorScreen.methodsOn, selection: 0))
        #expect(on.contains("On"))
        // Still loading: neither, since the methods say which.
        let loading = text(SampleData.state([], methods: nil, now: now))
        #expect(loading.contains("Two-factor authentication"))
        #expect(!loading.contains("Soon"))
    }

    @Test func offTheRowSetsUpAfterVerifyItsYou() {
        var screen = HubScreen(selection: twoFactorRow)
        let state = hub(SampleData.everyMethod, selection: twoFactorRow)
        #expect(screen.perform(.open, state.context) == [.push(ReauthPickerScreen(flow: .setUpTwoFactor))])
        var verified = state
        verified.reauth = grant
        #expect(screen.perform(.open, verified.context) == [.continueFlow(.setUpTwoFactor)])
        #expect(
            TwoFactorSetupFlow().start(verified.context) == [.popTo(HubScreen.self), .push(TwoFactorSetupScreen())])
    }

    @Test func onTheRowOpensTheTwoFactorScreenWhichLoads() {
        let harness = ReducerHarness(hub(TwoFactorScreen.methodsOn, selection: twoFactorRow))
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.GetTwoFactor(), id: 1)]) {
            $0.stack.append(AnyScreen(TwoFactorScreen()))
            $0.topAwaits(1, Endpoint.GetTwoFactor.self)
        }
        let status = TwoFactorStatus(enabled: true, enabledAt: now - 86_400, recoveryCodesRemaining: 2)
        harness.send(.reply(status, to: RequestID(1))) {
            $0.top = AnyScreen(TwoFactorScreen(status: status, isLoading: false))
        }
        let screen = text(harness.state)
        #expect(screen.contains("2 recovery codes left."))
        #expect(screen.contains("Regenerate recovery codes"))
        #expect(screen.contains("Turn off"))
    }

    @Test func offlineAndLimitedTheRowChangesNothing() {
        var screen = HubScreen(selection: twoFactorRow)
        var offline = hub(SampleData.everyMethod, selection: twoFactorRow)
        offline.isOffline = true
        #expect(
            screen.perform(.open, offline.context) == [
                .showToast("You're offline. Changes are off until you reconnect.")
            ])
        let limited = SampleData.limitedState([HubScreen(selection: twoFactorRow)], now: now)
        #expect(screen.perform(.open, limited.context) == [.showSheet(.limitedAccess)])
    }

    // MARK: - Set-up

    func setupState(_ screen: TwoFactorSetupScreen) -> AppState {
        var state = SampleData.state([screen], now: now)
        state.reauth = grant
        return state
    }

    @Test func setUpShowsTheQRCodeThenConfirmsTheFirstCodeThenTheRecoveryCodes() {
        var screen = TwoFactorSetupScreen()
        let state = setupState(screen)
        #expect(
            screen.onAppear(state.context) == [
                .call(Endpoint.StartTwoFactorSetup(reauthToken: "ra_fixture"), TwoFactorSetupScreen.Reply.started)
            ])
        let pending = TwoFactorSetupScreen.samplePending(now: now)
        let setup = TwoFactorSetup(
            secret: pending.secret.value, otpauthUri: pending.uri.value, expiresAt: pending.expiresAt)
        #expect(screen.receive(.started(.success(setup)), state.context) == [])
        #expect(screen.pending == pending)
        // Enter: the boxes; six digits send the code.
        #expect(screen.perform(.next, state.context) == [])
        #expect(screen.stage == .confirm)
        for digit in "12345" { #expect(screen.handle(.key(.character(digit)), state.context) == []) }
        #expect(
            screen.handle(.key(.character("6")), state.context) == [
                .call(Endpoint.ConfirmTwoFactorSetup(code: "123456"), TwoFactorSetupScreen.Reply.confirmed)
            ])
        // Wrong: inline, with the attempts left.
        _ = screen.receive(.confirmed(.failure(.codeIncorrect(attemptsRemaining: 4, message: "x"))), state.context)
        let wrong = text(setupState(screen))
        #expect(wrong.contains("Code is incorrect. Try again."))
        #expect(wrong.contains("4 attempts left"))
        // Right: two-factor is on, and the codes replace this screen.
        let codes = RecoveryCodesScreen.sampleCodes
        var on = TwoFactorScreen.methodsOn
        on.twoFactorEnabled = true
        #expect(
            screen.receive(.confirmed(.success(RecoveryCodes(recoveryCodes: codes))), state.context) == [
                .setMethods(on), .replaceTop(RecoveryCodesScreen(purpose: .setUp, codes: codes)),
            ])
    }

    /// The QR code is drawn where it fits whole; at 80×24 the key is shown instead, with the height needed.
    @Test func theQRCodeIsDrawnWhereItFitsAndTheKeyOtherwise() {
        let state = setupState(TwoFactorSetupScreen.sample(now: now))
        let small = text(state)
        #expect(small.contains("IFRW GZLT ONCG KY3L"))
        #expect(small.contains("too small for the QR code"))
        let tall = text(state, size: Size(cols: 80, rows: 50))
        #expect(tall.contains("▀") || tall.contains("▄") || tall.contains("█"))
        #expect(!tall.contains("IFRW GZLT"))
        #expect(tall.contains("k shows the key"))
        let wide = text(state, size: Size(cols: 140, rows: 50))
        #expect(wide.contains("IFRW GZLT") && wide.contains("█"))
        // "k": the key instead, even where the code fits.
        let key = setupState(TwoFactorSetupScreen.sample(now: now, showsKey: true))
        #expect(text(key, size: Size(cols: 80, rows: 50)).contains("IFRW GZLT ONCG KY3L"))
    }

    /// The expiry is counted from the clock, never stored; once over, only "r" goes on.
    @Test func thePendingSetUpsExpiryCountsDownFromTheClock() {
        var state = setupState(TwoFactorSetupScreen.sample(now: now, stage: .confirm))
        #expect(text(state).contains("Set-up expires in 9:41"))
        state.now = now + 41
        #expect(text(state).contains("Set-up expires in 9:00"))
        state.now = now + 9 * 60 + 41
        let screen = state.top.as(TwoFactorSetupScreen.self)!
        #expect(screen.bindings(state.context).map(\.hint.description) == ["Start again"])
        #expect(text(state).contains(TwoFactorSetupScreen.expiredText))
    }

    @Test func fiveWrongFirstCodesEndTheSetUpAndRStartsAgain() {
        var screen = TwoFactorSetupScreen.sample(now: now, stage: .confirm)
        let state = setupState(screen)
        _ = screen.receive(.confirmed(.failure(.codeIncorrect(attemptsRemaining: 0, message: "x"))), state.context)
        #expect(screen.isDead)
        #expect(screen.perform(.restart, state.context) == screen.onAppear(state.context))
        #expect(screen.pending != nil && !screen.isDead && screen.stage == .scan)
    }

    @Test func copyPutsTheKeyOnTheClipboard() {
        var screen = TwoFactorSetupScreen.sample(now: now)
        #expect(
            screen.perform(.copy, setupState(screen).context) == [
                .run(.copy("IFRWGZLTONCGKY3LEBSGK3LPEBVWK6JB")), .showToast("Copied the key"),
            ])
    }

    // MARK: - Recovery codes

    @Test func escOnTheRecoveryCodesAsksFirst() {
        let codes = RecoveryCodesScreen.sample(.setUp)
        let harness = ReducerHarness(SampleData.state([codes], methods: TwoFactorScreen.methodsOn, now: now))
        harness.send(.input(.key(.escape))) { $0.overlay = .sheet(.leaveRecoveryCodes(.setUp)) }
        // The sheet opens on "I saved them"; Enter leaves, told two-factor is on.
        harness.send(
            .input(.key(.enter)), effects: [.after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast)]
        ) {
            $0.overlay = nil
            $0.stack.removeLast()
            $0.toast = Toast(TwoFactor.turnedOnText, shownAt: self.now)
        }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    @Test func copyPutsTheTenCodesOnTheClipboard() {
        var screen = RecoveryCodesScreen.sample(.setUp)
        let context = SampleData.state([screen], now: now).context
        #expect(
            screen.perform(.copy, context) == [
                .run(.copy(RecoveryCodesScreen.sampleCodes.joined(separator: "\n"))), .showToast("Copied 10 codes"),
            ])
    }

    /// Recordings and `play` prints never show a recovery code or the secret.
    @Test func recordingsConcealTheCodesAndTheKey() {
        let codes = SampleData.state([RecoveryCodesScreen.sample(.setUp)], now: now)
        #expect(text(codes).contains("k7m2q-x4bnp"))
        #expect(!text(codes.concealingScreenSecrets).contains("k7m2q-x4bnp"))
        #expect(!text(codes.concealedForRecording).contains("k7m2q-x4bnp"))
        let setup = setupState(TwoFactorSetupScreen.sample(now: now))
        #expect(text(setup).contains("IFRW"))
        #expect(!text(setup.concealingScreenSecrets).contains("IFRW"))
        let tall = Size(cols: 80, rows: 50)
        #expect(!text(setup.concealingScreenSecrets, size: tall).contains("█"))
    }

    // MARK: - Managing it

    /// Issue 48 item 17: the old codes die at once, so a sheet asks first (Cancel selected), then Verify it's you.
    @Test func regenerateAsksThenGoesThroughVerifyItsYouThenShowsTheNewCodes() {
        var screen = TwoFactorScreen.sample(now: now)
        let state = SampleData.state([screen], methods: TwoFactorScreen.methodsOn, now: now)
        #expect(screen.perform(.open, state.context) == [.showSheet(.regenerateRecoveryCodes(state.context))])
        let sheet = Sheet.regenerateRecoveryCodes(state.context)
        #expect(sheet.sheet.body.contains("stop working at once"))
        #expect(sheet.actions[0] == [.push(ReauthPickerScreen(flow: AnyFlow(RegenerateRecoveryCodesFlow())))])
        #expect(sheet.actions[1] == [])
        var verified = state
        verified.reauth = grant
        #expect(
            screen.receiveChoice(.regenerate, verified.context) == [
                .call(Endpoint.RegenerateRecoveryCodes(reauthToken: "ra_fixture"), TwoFactorScreen.Reply.regenerated)
            ])
        let codes = RecoveryCodesScreen.sampleCodes
        #expect(
            screen.receive(.regenerated(.success(RecoveryCodes(recoveryCodes: codes))), verified.context) == [
                .push(RecoveryCodesScreen(purpose: .regenerated, codes: codes))
            ])
        #expect(
            RecoveryCodesScreen.done(.regenerated) == [
                .returnTo(TwoFactorScreen.self, with: TwoFactorScreen.Verified.codesSaved),
                .showToast("New recovery codes saved. The old ones no longer work."),
            ])
    }

    @Test func turnOffAsksOnASheetThenVerifiesThenGoesBackToTheHub() {
        var screen = TwoFactorScreen.sample(now: now, selection: 1)
        let state = SampleData.state([screen], methods: TwoFactorScreen.methodsOn, now: now)
        #expect(screen.perform(.open, state.context) == [.showSheet(.turnOffTwoFactor(state.context))])
        #expect(
            Sheet.turnOffTwoFactor(state.context).actions[0] == [.push(ReauthPickerScreen(flow: .turnOffTwoFactor))])
        var verified = state
        verified.reauth = grant
        #expect(
            screen.receiveChoice(.turnOff, verified.context) == [
                .call(Endpoint.DisableTwoFactor(reauthToken: "ra_fixture"), TwoFactorScreen.Reply.turnedOff)
            ])
        #expect(
            screen.receive(.turnedOff(.success(Acknowledged())), verified.context) == [
                .setMethods(SampleData.everyMethod.withTwoFactor(false)), .popTo(HubScreen.self),
                .showToast(TwoFactor.turnedOffText),
            ])
    }

    // MARK: - "Verify it's you"

    @Test func thePickerOffersTheAuthenticatorWhenTheAccountHasIt() {
        let without = SampleData.state([ReauthPickerScreen(flow: .turnOffTwoFactor)], now: now)
        #expect(!text(without).contains("Authenticator app"))
        var picker = ReauthPickerScreen(flow: .turnOffTwoFactor)
        let with = SampleData.state([picker], methods: TwoFactorScreen.methodsOn, now: now)
        #expect(text(with).contains("Authenticator app"))
        let options = picker.options(with.context)
        let index = try! #require(options.firstIndex(of: .method(.authenticator)))
        picker.selection = index
        #expect(
            picker.perform(.choose, with.context) == [
                .push(AuthenticatorCodeScreen(purpose: .reauth(.turnOffTwoFactor)))
            ])
    }

    @Test func theAuthenticatorsRightCodeOpensTheWindowAndTheFlowGoesOn() {
        var screen = AuthenticatorCodeScreen(purpose: .reauth(.turnOffTwoFactor))
        let context = SampleData.state([screen], methods: TwoFactorScreen.methodsOn, now: now).context
        for digit in "12345" { _ = screen.handle(.key(.character(digit)), context) }
        #expect(
            screen.handle(.key(.character("6")), context) == [
                .call(Endpoint.ReauthAuthenticator(code: "123456"), AuthenticatorCodeScreen.Reply.reauth)
            ])
        #expect(
            screen.receive(.reauth(.success(grant)), context) == [
                .grantReauth(grant), .continueFlow(.turnOffTwoFactor),
            ])
    }

    // MARK: - The second step of a sign-in

    /// A first factor that answers second_factor_required lands on the code screen alone; its right code
    /// is a sign-in of its own, which goes where the sign-in would have gone.
    @Test func aSignInThatNeedsTheSecondFactorAsksForTheCodeThenGoesOn() {
        var state = AppState(root: SignInScreen(), now: now)
        _ = apply([.signedIn(signedIn(required: true))], to: &state, for: nil)
        #expect(state.stack == [AnyScreen(AuthenticatorCodeScreen())])
        #expect(text(state).contains("Enter the code from your authenticator app"))
        #expect(text(state).contains("Use a recovery code"))
        #expect(text(state).contains("Esc Log out"))
        let harness = ReducerHarness(state, exhaustivity: .off)
        for digit in "65432" { harness.send(.input(.key(.character(digit)))) }
        let effects = harness.send(.input(.key(.character("1"))))
        #expect(effects.contains(.request(VerifySecondFactor(code: "654321"), id: 1)))
        harness.send(.reply(signedIn(required: false), to: RequestID(1)))
        #expect(harness.state.stack == [AnyScreen(SettingsScreen())])
        #expect(harness.state.methods == TwoFactorScreen.methodsOn)
    }

    /// A stored session that passed one factor only: the backend's 403 at start takes it to the second step.
    @Test func aStoredSessionWithoutItsSecondFactorIsAskedForItAtStart() {
        var state = AppState(root: SessionCheckScreen(), now: now)
        state.pending[.inFlight] = state.waiting(.screen(depth: 0), CheckSession.self, SessionCheckScreen.Reply.me)
        let refusal = APIError.server(
            status: 403, code: "second_factor_required",
            message: "Enter the code from your authenticator app to finish signing in.")
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.failure(refusal))
        #expect(harness.state.stack == [AnyScreen(AuthenticatorCodeScreen())])
    }

    @Test func fiveWrongCodesLockTheStepWithACountdown() {
        var screen = AuthenticatorCodeScreen(digits: "111111")
        var state = AppState(root: screen, now: now)
        _ = screen.receive(.signIn(.failure(.codeIncorrect(attemptsRemaining: 1, message: "x"))), state.context)
        state.top = AnyScreen(screen)
        #expect(text(state).contains("1 attempt left"))
        _ = screen.receive(
            .signIn(.failure(.rateLimited(retryAfter: 900, message: "x", limit: nil))), state.context)
        state.top = AnyScreen(screen)
        #expect(screen.entry.lock?.until == now + 900)
        #expect(text(state).contains("15:00"))
        #expect(screen.handle(.key(.character("1")), state.context) == [])
        state.now = now + 899
        #expect(text(state).contains("0:01"))
        state.now = now + 900
        _ = screen.tick(state.context)
        #expect(screen.entry.lock == nil && screen.entry.refusal == nil)
    }

    /// Issue 48 items 3 and 4: a person who lost the app and the recovery codes has Contact support on the
    /// second step (seed 000's lost factors), and the lock says only the wait: recovery codes are refused
    /// during it too, so u is offered again only when the lock is over.
    @Test func theSecondStepOffersSupportAndTheLockSaysOnlyWhatWorks() {
        let locked = AuthenticatorCodeScreen(refusal: .message(TwoFactor.lockedText), lock: RateLimit(until: now + 900))
        let harness = ReducerHarness(AppState(root: locked, now: now), exhaustivity: .off)
        let keys = keymap(for: harness.state).hints.flatMap(\.allKeys)
        #expect(!keys.contains(.character("u")))
        #expect(keys.contains(.character("s")))
        #expect(!text(harness.state).contains("recovery code?"))
        #expect(!text(harness.state).lowercased().contains("or use a recovery code"))
        #expect(text(harness.state).contains(TwoFactor.lostEverythingText))
        harness.send(.input(.key(.character("s"))))
        #expect(harness.state.top.is(ScreenType(ContactSupportScreen.self)))
        harness.send(.input(.key(.escape)))
        harness.advance(by: 900)
        #expect(keymap(for: harness.state).hints.flatMap(\.allKeys).contains(.character("u")))
        #expect(text(harness.state).contains("Press u to use a recovery code."))
    }

    /// Issue 48 item 17: a toast drawn at the bottom landed inside a bottom sheet; over a sheet it sits above it.
    @Test func aToastOverASheetIsDrawnAboveIt() throws {
        var state = SampleData.state(
            [TwoFactorScreen.sample(now: now, selection: 1)], methods: TwoFactorScreen.methodsOn, now: now)
        state.overlay = .sheet(.turnOffTwoFactor(state.context))
        state.toast = Toast("New recovery codes saved. The old ones no longer work.", shownAt: now)
        let frame = renderFrame(state, size: .standard)
        let sheet = try #require(frame.overlayFrame)
        let lines = frame.grid.textLines()
        let toastRow = try #require(lines.firstIndex { $0.contains("New recovery codes saved.") })
        #expect(toastRow < sheet.y)
        #expect(lines[sheet.y...].allSatisfy { !$0.contains("New recovery codes saved.") })
    }

    @Test func aRecoveryCodeSignsInAndOneLeftIsSaid() {
        var screen = RecoveryCodeSignInScreen(code: "K7M2Q-X4BNP ")
        let context = RecoveryCodeSignInScreen.state(screen, now: now).context
        #expect(
            screen.perform(.submit, context) == [
                .call(SignInWithRecoveryCode(recoveryCode: "K7M2Q-X4BNP"), RecoveryCodeSignInScreen.Reply.signIn)
            ])
        let done = signedIn(required: false)
        #expect(
            screen.receive(.signIn(.success(RecoveredSignIn(signedIn: done, codesRemaining: 1))), context) == [
                .signedIn(done), .showSheet(.recoveryCodesRunningOut(1)),
            ])
        #expect(
            screen.receive(.signIn(.success(RecoveredSignIn(signedIn: done, codesRemaining: 7))), context) == [
                .signedIn(done), .showToast("Signed in with a recovery code. 7 codes left."),
            ])
    }

    // MARK: - The palette

    @Test func thePaletteOffersTheCurrentCodeAndRecordingsHideIt() {
        var state = SampleData.state([], now: now)
        #expect(
            CommandPalette.commands(for: state).contains { $0.action == .authenticatorCode })
        let effects = runPaletteAction(.authenticatorCode, in: &state)
        #expect(effects == [.request(LoadAuthenticatorCode(), id: 1)])
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.reply(AuthenticatorCode(code: "492039", secondsLeft: 17), to: RequestID(1)))
        #expect(harness.state.toast?.message == "Authenticator code: 492039 · 17 s left")
        #expect(text(harness.state).contains("492039"))
        #expect(!text(harness.state.concealedForRecording).contains("492039"))
    }
}

extension AuthMethods {
    fileprivate func withTwoFactor(_ on: Bool) -> AuthMethods {
        var methods = self
        methods.twoFactorEnabled = on
        return methods
    }
}

/// The fifth wrong two-factor code is a 401 that carries the lock's wait (the contract): the client reads it
/// as the lock, so the screen counts down at once. Before, it was a wrong code with no wait.
@Suite struct TwoFactorLockoutReplyTests {
    @Test func aWrongCodeThatStartsTheLockIsTheLock() {
        let body = Data(
            #"{"error":{"code":"code_incorrect","message":"Code is incorrect.","attempts_remaining":0,"retry_after":900,"limit":"two_factor_attempts"}}"#
                .utf8)
        let failure = APIError.from(status: 401, body: body, retryAfterHeader: nil)
        #expect(failure == .rateLimited(retryAfter: 900, message: "Code is incorrect.", limit: .twoFactorAttempts))
        // A wrong code with tries left is what it was.
        let wrong = Data(
            #"{"error":{"code":"code_incorrect","message":"Code is incorrect.","attempts_remaining":3}}"#.utf8)
        #expect(
            APIError.from(status: 401, body: wrong, retryAfterHeader: nil)
                == .codeIncorrect(attemptsRemaining: 3, message: "Code is incorrect."))
    }
}
