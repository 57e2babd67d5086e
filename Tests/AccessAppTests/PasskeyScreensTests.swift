import AccessAPI
import AccessAppTesting
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 53 item 2: the passkey screens, the "Use your passkey" sheet and the ceremonies' refusals, through
/// `reduce`.
@Suite struct PasskeyScreensTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

    var list: [Passkey] { PasskeysGallery.passkeys(now: now) }
    var methods: AuthMethods { PasskeysGallery.methodsWithPasskey }
    var options: PasskeyCreationOptions { PasskeysGallery.creationOptions(now: now) }

    func onList(selection: Int = 0) -> AppState {
        SampleData.state([PasskeysGallery.screen(now: now, selection: selection)], methods: methods, now: now)
    }

    // MARK: - The hub's row and the list

    @Test func theHubRowSitsBesideGoogleAndOpensTheListWhichLoads() {
        var state = SampleData.state([], methods: methods, now: now)
        let rows = HubScreen.rows(methods, platform: .ios)
        let index = try! #require(rows.firstIndex { $0.kind == .passkeys })
        #expect(rows[index - 1].kind == .google)
        #expect(rows[index].detail == "2 passkeys")
        state.top = AnyScreen(HubScreen(selection: index))
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ListPasskeys(), id: 1)]) {
            $0.stack.append(AnyScreen(PasskeysScreen()))
            $0.topAwaits(1, Endpoint.ListPasskeys.self)
        }
        harness.send(.reply(PasskeyList(passkeys: list), to: RequestID(1))) {
            $0.top = AnyScreen(PasskeysScreen(passkeys: self.list, isLoading: false))
        }
        let screen = text(harness.state)
        #expect(screen.contains("Terminal on qa-box · created 3 days ago · last used 5 min ago"))
        #expect(screen.contains("Nino's iPhone · created 40 days ago · never used"))
        #expect(screen.contains("Add a passkey"))
    }

    @Test func aPasskeyWithoutOneSaysNotSetUpOnTheHub() {
        let rows = HubScreen.rows(SampleData.everyMethod, platform: .android)
        #expect(rows.first { $0.kind == .passkeys }?.detail == "Not set up")
    }

    @Test func aClonedPasskeyIsMarkedTurnedOff() {
        let state = SampleData.state(
            [PasskeysGallery.screen(now: now, clonedSecond: true)], methods: methods, now: now)
        #expect(text(state).contains(PasskeysScreen.clonedBadge))
        #expect(!text(onList()).contains(PasskeysScreen.clonedBadge))
    }

    // MARK: - Add a passkey

    @Test func addAPasskeyAsksForOptionsThenTheSheetsEnterRegistersIt() {
        let harness = ReducerHarness(onList(selection: 2), exhaustivity: .off)
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.PasskeyRegistrationOptions(), id: 1)]) {
            $0.top = AnyScreen(PasskeysGallery.screen(now: self.now, selection: 2))
            var screen = PasskeysGallery.screen(now: self.now, selection: 2)
            screen.isWorking = true
            $0.top = AnyScreen(screen)
        }
        harness.send(.reply(options, to: RequestID(1))) {
            #expect($0.overlay?.as(Sheet.self)?.sheet.title == "Create a passkey")
        }
        #expect(text(harness.state).contains("Save a passkey for jdoe@mail.com on this device?"))
        harness.send(.input(.key(.enter)), effects: [.request(RegisterDevicePasskey(options: options), id: 2)]) {
            $0.overlay = nil
        }
        let added = list[0]
        harness.send(
            .reply(added, to: RequestID(2)),
            effects: [
                .after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast),
                .request(Endpoint.ListPasskeys(), id: 3), .request(LoadAuthMethods(), id: 4),
            ]
        ) {
            $0.toast = Toast(PasskeyWording.addedText, shownAt: self.now)
        }
        #expect(harness.state.top.as(PasskeysScreen.self)?.isWorking == false)
        #expect(harness.state.top.as(PasskeysScreen.self)?.error == nil)
    }

    @Test func escOnTheCreateSheetIsTheUsersCancelAndSendsNothing() {
        var state = onList(selection: 2)
        var screen = PasskeysGallery.screen(now: now, selection: 2)
        screen.isWorking = true
        state.top = AnyScreen(screen)
        state.overlay = .sheet(PasskeysScreen.createSheet(options))
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.escape)), effects: []) {
            $0.overlay = nil
            $0.top = AnyScreen(
                PasskeysGallery.screen(now: self.now, selection: 2, error: PasskeyWording.cancelledText))
        }
        #expect(text(harness.state).contains("Passkey cancelled. Nothing was sent."))
    }

    @Test(arguments: [
        (APIError.codeExpired(message: "gone"), "Your passkey request expired. Try again."),
        (
            .server(status: 422, code: "passkey_bad_attestation", message: "x"),
            "Your passkey couldn't be checked. Try again."
        ),
        (.server(status: 409, code: "passkey_exists", message: "x"), "This passkey is already on your account."),
    ])
    func aRefusedRegistrationIsWordedUnderTheList(failure: APIError, words: String) {
        var screen = PasskeysGallery.screen(now: now, selection: 2)
        screen.isWorking = true
        let state = SampleData.state([screen], methods: methods, now: now)
            .topWaiting(RegisterDevicePasskey.self, PasskeysScreen.Reply.registered)
        let harness = ReducerHarness(state)
        harness.send(.failure(failure)) {
            $0.answered()
            $0.top = AnyScreen(PasskeysGallery.screen(now: self.now, selection: 2, error: words))
        }
        #expect(text(harness.state).contains(words))
    }

    // MARK: - Remove

    @Test func removeGoesThroughVerifyItsYouWithoutAPasskeyThenTheConfirmation() {
        let passkey = list[1]
        var state = onList(selection: 1)
        let flow = RemovePasskeyFlow(id: passkey.id, name: passkey.name)
        // No grant: the picker, which offers no passkey (a passkey's grant does not remove one).
        let actions = Sheet.passkeyActions(
            passkey, rename: [.push(RenamePasskeyScreen(passkey: passkey))],
            remove: Reauth.verifyThen(flow, state.context))
        #expect(actions.actions[1] == [.push(ReauthPickerScreen(flow: AnyFlow(flow)))])
        let picker = ReauthPickerScreen(flow: AnyFlow(flow))
        #expect(!picker.options(state.context).contains(.method(.passkey)))
        // Verified: back on the list with the confirmation; its Remove sends the grant.
        state.reauth = ReauthGrant(reauthToken: "ra_fixture", expiresAt: now + 900, method: .init(.password))
        #expect(
            flow.start(state.context) == [
                .returnTo(PasskeysScreen.self, with: .verifiedToRemove(id: passkey.id, name: passkey.name))
            ])
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.enter))) {
            $0.overlay = .sheet(
                .passkeyActions(
                    passkey, rename: [.push(RenamePasskeyScreen(passkey: passkey))],
                    remove: [.continueFlow(flow)]))
        }
        harness.send(.input(.key(.down)))
        harness.send(.input(.key(.enter))) {
            #expect($0.overlay?.as(Sheet.self)?.sheet.title == "Remove iPhone?")
        }
        harness.send(.input(.key(.up)))
        harness.send(
            .input(.key(.enter)),
            effects: [.request(Endpoint.RemovePasskey(id: passkey.id, reauthToken: "ra_fixture"), id: 1)])
        harness.send(.reply(Acknowledged(), to: RequestID(1))) {
            $0.toast = Toast("iPhone removed.", shownAt: self.now)
        }
    }

    @Test func theLastMethodRefusalIsTheHardBlock() {
        let state = onList(selection: 0).topWaiting(Endpoint.RemovePasskey.self) {
            PasskeysScreen.Reply.removed("cred_terminal", $0)
        }
        let harness = ReducerHarness(state)
        harness.send(.failure(.server(status: 409, code: "last_method", message: "Add another way first."))) {
            $0.answered()
            $0.overlay = .sheet(.cantRemovePasskey)
        }
        #expect(text(harness.state).contains("This is your only sign-in method."))
    }

    /// `passkey-only`: the one passkey is the account's only way in, so the hub's hard block shows before any
    /// "Verify it's you" (which would have no method to offer); a flagged one may always be removed.
    @Test func theOnlyWayInIsBlockedBeforeVerifyItsYou() {
        var passkeyOnly = SampleData.appleOnly
        passkeyOnly.appleLinked = false
        passkeyOnly.passkeys = 1
        let passkey = list[0]
        let context = SampleData.state([], methods: passkeyOnly, now: now).context
        #expect(PasskeysScreen.removeCommands(passkey, context) == [.showSheet(.cantRemovePasskey)])
        var flagged = passkey
        flagged.flaggedAsCloned = true
        #expect(PasskeysScreen.removeCommands(flagged, context) != [.showSheet(.cantRemovePasskey)])
        // With two passkeys and nothing else, nothing is left to verify with: the session suffices (as the backend
        // judges it), and the confirmation follows.
        passkeyOnly.passkeys = 2
        let two = SampleData.state([], methods: passkeyOnly, now: now).context
        let flow = RemovePasskeyFlow(id: passkey.id, name: passkey.name)
        #expect(PasskeysScreen.removeCommands(passkey, two) == [.continueFlow(flow)])
    }

    // MARK: - Rename

    @Test func renameSendsTheTrimmedNameAndAServerRefusalShowsUnderTheField() {
        let passkey = list[1]
        var state = onList(selection: 1)
        state.stack.append(AnyScreen(RenamePasskeyScreen(passkey: passkey, name: "  Work phone ")))
        let harness = ReducerHarness(state)
        harness.send(
            .input(.key(.enter)),
            effects: [.request(Endpoint.RenamePasskey(id: passkey.id, name: "Work phone"), id: 1)]
        ) {
            $0.top = AnyScreen(RenamePasskeyScreen(passkey: passkey, name: "  Work phone ", isWorking: true))
            $0.topAwaits(1, Endpoint.RenamePasskey.self)
        }
        let message = "name: expected 1 to 64 characters."
        harness.send(.failure(.invalid(fieldErrors: ["name"], message: message), to: RequestID(1))) {
            $0.answered(RequestID(1))
            $0.top = AnyScreen(RenamePasskeyScreen(passkey: passkey, name: "  Work phone ", error: message))
        }
    }

    @Test func anEmptyNameIsRefusedBeforeAnyCallAndTheFieldStopsAtTheLimit() {
        var screen = RenamePasskeyScreen(passkey: list[0], name: "   ")
        let context = onList().context
        #expect(screen.perform(.save, context) == [])
        #expect(screen.error == RenamePasskeyScreen.emptyText)
        #expect(screen.field.maxLength == PasskeyRules.maxNameLength)
    }

    @Test func aRenameGoesBackToTheListWhichLoadsAgain() {
        var state = onList(selection: 1)
        state.stack.append(AnyScreen(RenamePasskeyScreen(passkey: list[1], name: "Work phone", isWorking: true)))
        let harness = ReducerHarness(
            state.topWaiting(Endpoint.RenamePasskey.self, RenamePasskeyScreen.Reply.renamed), exhaustivity: .off)
        var renamed = list[1]
        renamed.name = "Work phone"
        harness.send(
            .reply(renamed),
            effects: [
                .request(Endpoint.ListPasskeys(), id: 1),
                .after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast),
            ]
        ) {
            #expect($0.top.as(PasskeysScreen.self) != nil)
            $0.toast = Toast(PasskeyWording.renamedText, shownAt: self.now)
        }
    }

    // MARK: - Continue with passkey

    func signIn() -> AppState {
        AppState(root: SignInScreen.selecting(.passkey, SampleData.state([], now: now).context), now: now)
    }

    func prompt(_ accounts: [String]) -> PasskeyPrompt { PasskeysGallery.prompt(now: now, accounts: accounts) }

    @Test func continueWithPasskeyOpensTheSheetAndEnterSignsIn() {
        let harness = ReducerHarness(signIn(), exhaustivity: .off)
        harness.send(.input(.key(.enter)), effects: [.request(PasskeySignInPrompt(), id: 1)]) {
            #expect($0.top.as(SignInScreen.self)?.isWorking == true)
        }
        let prompt = prompt(["jdoe@mail.com", "coach@mail.com"])
        harness.send(.reply(prompt, to: RequestID(1))) {
            #expect($0.overlay?.as(Sheet.self)?.sheet.title == "Use your passkey")
        }
        let screen = text(harness.state)
        #expect(screen.contains("Choose an account."))
        #expect(screen.contains("coach@mail.com"))
        // ↓ chooses the second account; Enter approves it.
        harness.send(.input(.key(.down)))
        harness.send(
            .input(.key(.enter)),
            effects: [.request(SignInWithDevicePasskey(options: prompt.options, credentialID: "cred_1"), id: 2)]
        ) { $0.overlay = nil }
        let signedIn = SignedIn(
            session: SessionTokens(
                userId: "usr_7G8H9K2L", accessToken: "at_x", accessExpiresAt: now + 3600, refreshToken: "rt_x",
                refreshExpiresAt: now + 7 * 86_400),
            deviceId: "dvc_1", isNewUser: false, authMethods: methods, profile: nil,
            assuranceLevel: .init(.aal1), secondFactorRequired: false)
        harness.send(.reply(signedIn, to: RequestID(2))) {
            #expect($0.stack.count == 1)
            #expect($0.top.as(SignInScreen.self) == nil)
        }
    }

    @Test func escOnTheSignInSheetSaysSoInlineAndSendsNothing() {
        var state = PasskeysGallery.signInSheet(prompt(["jdoe@mail.com"]), now: now)
        state.nextRequestID = 1
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.escape)), effects: []) {
            $0.overlay = nil
            var screen = SignInScreen.selecting(.passkey, SampleData.state([], now: self.now).context)
            screen.error = PasskeyWording.cancelledText
            $0.top = AnyScreen(screen)
        }
        #expect(text(harness.state).contains("Passkey cancelled. Nothing was sent."))
    }

    @Test func withNoPasskeyOnThisDeviceTheSheetSaysSoAndOnlyEscClosesIt() {
        let harness = ReducerHarness(PasskeysGallery.signInSheet(prompt([]), now: now))
        let screen = text(harness.state)
        #expect(screen.contains("No passkey on this device"))
        #expect(screen.contains("There's no passkey for accessdeck.localhost on this device."))
        // Enter does nothing here (the sheet has nothing to approve); Esc closes it, and the screen says nothing.
        harness.send(.input(.key(.enter)), effects: [])
        harness.send(.input(.key(.escape)), effects: []) { $0.overlay = nil }
        #expect(harness.state.top.as(SignInScreen.self)?.error == nil)
    }

    @Test(arguments: [
        (APIError.codeExpired(message: "x"), "Your passkey request expired. Try again."),
        (
            .server(status: 404, code: "passkey_not_found", message: "x"),
            "This passkey was removed from your account. Sign in another way."
        ),
        (
            .server(status: 403, code: "passkey_counter_went_back", message: "x"),
            "This passkey was turned off because a copy of it was used. Sign in another way."
        ),
        (
            .server(status: 422, code: "passkey_wrong_origin", message: "x"),
            "This passkey is for a different website. Sign in another way."
        ),
        (
            .server(status: 422, code: "passkey_bad_signature", message: "x"),
            "Your passkey couldn't be checked. Try again."
        ),
        (
            .server(status: 0, code: DevicePasskeys.notOnDeviceCode, message: "x"),
            "This passkey isn't on this device any more. Sign in another way."
        ),
    ])
    func eachSignInRefusalIsWordedInline(failure: APIError, words: String) {
        var screen = SignInScreen.selecting(.passkey, SampleData.state([], now: now).context)
        screen.isWorking = true
        let state = AppState(root: screen, now: now).topWaiting(
            SignInWithDevicePasskey.self, SignInScreen.Reply.signedIn)
        let harness = ReducerHarness(state)
        harness.send(.failure(failure)) {
            $0.answered()
            var screen = SignInScreen.selecting(.passkey, SampleData.state([], now: self.now).context)
            screen.error = words
            $0.top = AnyScreen(screen)
        }
        #expect(text(harness.state).contains(String(words.prefix(40))))
    }

    // MARK: - Verify it's you

    @Test func thePickerOffersPasskeyOnlyWhenTheAccountHasOne() {
        let with = SampleData.state([], methods: methods, now: now).context
        let without = SampleData.state([], now: now).context
        #expect(ReauthPickerScreen(flow: .changePhone).options(with).contains(.method(.passkey)))
        #expect(!ReauthPickerScreen(flow: .changePhone).options(without).contains(.method(.passkey)))
    }

    @Test func passkeyInThePickerVerifiesAndTheFlowGoesOn() {
        let picker = PasskeysGallery.picker(now: now)
        let state = SampleData.state([picker], methods: methods, now: now)
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.enter)), effects: [.request(PasskeyReauthPrompt(), id: 1)])
        let prompt = prompt(["jdoe@mail.com"])
        harness.send(.reply(prompt, to: RequestID(1))) {
            #expect($0.overlay?.as(Sheet.self)?.sheet.title == "Use your passkey")
        }
        harness.send(
            .input(.key(.enter)),
            effects: [.request(ReauthWithDevicePasskey(options: prompt.options, credentialID: "cred_0"), id: 2)])
        let grant = ReauthGrant(reauthToken: "ra_passkey", expiresAt: now + 900, method: .init(.passkey))
        harness.send(.reply(grant, to: RequestID(2))) {
            $0.reauth = grant
            #expect($0.top.as(EnterPhoneScreen.self) != nil)
        }
    }

    @Test func escOnThePickersSheetSaysSoAndACloneIsWordedForVerifying() {
        var state = SampleData.state([PasskeysGallery.picker(now: now, isWorking: true)], methods: methods, now: now)
        state.overlay = .sheet(ReauthPickerScreen.passkeySheet(prompt(["jdoe@mail.com"])))
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.escape)), effects: []) {
            $0.overlay = nil
            $0.top = AnyScreen(PasskeysGallery.picker(now: self.now, error: PasskeyWording.cancelledText))
        }
        let cloned = PasskeyWording.refusal(
            .server(status: 403, code: "passkey_counter_went_back", message: ""), .reauth)
        #expect(cloned == "This passkey was turned off because a copy of it was used. Choose another way to verify.")
    }
}
