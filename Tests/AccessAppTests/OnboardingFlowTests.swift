import AccessAPI
import AccessAppTesting
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Seed 003's onboarding through `reduce`, against the contract (the walks in tmux take it to the
/// reference backend): where each step lands, the username's debounced check on a moved clock,
/// each refusal, skipping, the recovery email's link, and Settings' reminder.
@Suite struct OnboardingFlowTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let tick = Effect.after(seconds: 1, action: .tick, id: .clock)
    let debounce = Effect.after(seconds: ProfileScreen.debounce, action: .tick, id: .debounce)

    func profile(
        _ step: OnboardingStep, username: String? = "jdoe", email: String? = nil, verified: Bool = false
    ) -> Profile {
        SampleData.profile(step, username: username, email: email, verified: verified)
    }

    func onboarding(_ screen: some ScreenModel, profile: Profile?) -> AppState {
        SampleData.onboarding(screen, profile: profile, now: start)
    }

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

    func requests(_ effects: [Effect]) -> [AnyRequest] {
        effects.compactMap { effect in
            if case .request(let request, _) = effect { return request }
            return nil
        }
    }

    func requestID(_ effects: [Effect]) -> RequestID? {
        effects.lazy.compactMap { effect -> RequestID? in
            if case .request(_, let id) = effect { return id }
            return nil
        }.first
    }

    func type(_ text: String, into harness: ReducerHarness) {
        for character in text { harness.send(.input(.key(.character(character)))) }
    }

    // MARK: - Routing

    @Test func eachStepHasItsScreenAndNoneOrCompleteIsSettings() {
        func id(_ profile: Profile?) -> String { Onboarding.screen(for: profile).id }
        #expect(id(nil) == SettingsScreen().id)
        #expect(id(profile(.profile, username: nil)) == ProfileScreen().id)
        #expect(id(profile(.recoveryEmail)) == RecoveryEmailScreen().id)
        #expect(
            Onboarding.screen(for: profile(.verifyEmail, email: "jdoe@mail.com")) as? VerifyRecoveryEmailScreen
                == VerifyRecoveryEmailScreen(email: "jdoe@mail.com"))
        // The step needs an address; without one there is nothing to verify.
        #expect(id(profile(.verifyEmail)) == OnboardingDoneScreen().id)
        #expect(id(profile(.finish)) == OnboardingDoneScreen().id)
        #expect(id(profile(.complete)) == SettingsScreen().id)
    }

    func signedIn(isNewUser: Bool, profile: Profile?) -> SignedIn {
        SignedIn(
            session: SessionTokens(
                userId: "usr_new", accessToken: "at_x", accessExpiresAt: start + 3600, refreshToken: "rt_x",
                refreshExpiresAt: start + 7 * 86_400),
            deviceId: "dvc_1", isNewUser: isNewUser, authMethods: SampleData.phoneOnly, profile: profile,
            assuranceLevel: .init(.aal1), secondFactorRequired: false)
    }

    @Test func aSignInLandsOnItsStepAndANewUserWithoutAProfileOnTheFirst() {
        #expect(AppRoutes.signedIn(signedIn(isNewUser: true, profile: nil)).id == ProfileScreen().id)
        #expect(AppRoutes.signedIn(signedIn(isNewUser: false, profile: nil)).id == SettingsScreen().id)
        #expect(
            AppRoutes.signedIn(signedIn(isNewUser: true, profile: profile(.complete))).id
                == SettingsScreen().id)
        #expect(
            AppRoutes.signedIn(signedIn(isNewUser: false, profile: profile(.recoveryEmail))).id
                == RecoveryEmailScreen().id)
    }

    @Test func aSignInKeepsTheProfileAndStandsOnTheStepAlone() {
        var state = AppState(root: SignInScreen(), now: start)
        let recovery = profile(.recoveryEmail)
        _ = apply([.signedIn(signedIn(isNewUser: true, profile: recovery))], to: &state, for: .screen(depth: 0))
        #expect(state.profile == recovery)
        #expect(state.stack == [AnyScreen(RecoveryEmailScreen())])
    }

    /// Seed 002's "app killed mid-registration": the next start resumes at the step.
    @Test func aStoredSessionResumesWhereOnboardingStands() {
        let harness = ReducerHarness(AppState(root: SessionCheckScreen(), now: start))
        harness.send(
            .started,
            effects: [
                .request(AnyRequest(CheckSession()), id: RequestID(1)), .deadline(SessionCheckScreen.patience, of: 1),
                tick,
            ]
        ) {
            $0.topAwaits(1, CheckSession.self)
            $0.clockTicking = true
        }
        let waiting = profile(.verifyEmail, email: "jdoe@mail.com")
        let me = CurrentUser(
            userId: "usr_new", deviceId: "dvc_1", authMethods: SampleData.phoneOnly, profile: waiting)
        harness.send(.reply(me, to: RequestID(1)), effects: [.cancel(.deadline(RequestID(1)))]) {
            $0.answered(RequestID(1))
            $0.methods = SampleData.phoneOnly
            $0.methodsFetchedAt = start
            $0.profile = waiting
            $0.stack = [AnyScreen(VerifyRecoveryEmailScreen(email: "jdoe@mail.com"))]
        }
        harness.advance(by: 1)
        harness.receive(.tick) { $0.clockTicking = false }
    }

    @Test func theQASignInResumesTooAndNoProfileIsOnboarded() {
        let harness = ReducerHarness(AppState(root: WelcomeScreen(), now: start))
        harness.send(.qaSignedIn(SampleData.phoneOnly, profile: profile(.profile, username: nil))) {
            $0.methods = SampleData.phoneOnly
            $0.methodsFetchedAt = start
            $0.profile = profile(.profile, username: nil)
            $0.stack = [AnyScreen(ProfileScreen())]
        }

        // Welcome's `s`: a backend that gave no profile (404, 501) lands on Settings.
        var welcome = WelcomeScreen()
        let context = AppState(root: welcome, now: start).context
        let commands = welcome.receive(
            .qaSignIn(.success(QASignedIn(methods: SampleData.phoneOnly, profile: nil))), context)
        #expect(commands == [.setMethods(SampleData.phoneOnly), .setProfile(nil), .resetStack(SettingsScreen())])
    }

    // MARK: - Profile

    /// The check waits for typing to pause 400 ms, restarts with each key, and an answer about a name
    /// no longer in the field is dropped.
    @Test func usernameAvailabilityIsDebouncedAndALateAnswerIgnored() {
        let harness = ReducerHarness(onboarding(ProfileScreen(), profile: profile(.profile, username: nil)))
        // Too short: the checklist says so; nothing is asked.
        harness.send(.input(.key(.character("j")))) { $0.top = AnyScreen(ProfileScreen(username: "j")) }
        harness.send(.input(.key(.character("d")))) { $0.top = AnyScreen(ProfileScreen(username: "jd")) }
        harness.send(.input(.key(.character("o"))), effects: [debounce]) {
            $0.top = AnyScreen(ProfileScreen(username: "jdo", availability: .typing(since: start)))
        }
        harness.advance(by: 0.3)
        harness.send(.input(.key(.character("e"))), effects: [debounce]) {
            $0.top = AnyScreen(ProfileScreen(username: "jdoe", availability: .typing(since: start + 0.3)))
        }
        // The first key's 400 ms would have ended here; the restarted timer has not.
        harness.advance(by: 0.2)
        harness.advance(by: 0.2)
        harness.receive(.tick, effects: [.request(Endpoint.UsernameAvailable(username: "jdoe"), id: 1)]) {
            $0.top = AnyScreen(ProfileScreen(username: "jdoe", availability: .checking("jdoe")))
            $0.topAwaits(1, Endpoint.UsernameAvailable.self)
        }
        harness.send(.input(.key(.character("x"))), effects: [debounce]) {
            $0.top = AnyScreen(ProfileScreen(username: "jdoex", availability: .typing(since: start + 0.7)))
            $0.topAwaits(1, Endpoint.UsernameAvailable.self)
        }
        // "jdoe" is taken, but the field says "jdoex" now.
        harness.send(.reply(UsernameAvailability(username: "jdoe", available: false), to: RequestID(1))) {
            $0.answered(RequestID(1))
        }
        harness.advance(by: 0.4)
        harness.receive(.tick, effects: [.request(Endpoint.UsernameAvailable(username: "jdoex"), id: 2)]) {
            $0.top = AnyScreen(ProfileScreen(username: "jdoex", availability: .checking("jdoex")))
            $0.topAwaits(2, Endpoint.UsernameAvailable.self)
        }
        harness.send(.reply(UsernameAvailability(username: "jdoex", available: true), to: RequestID(2))) {
            $0.top = AnyScreen(ProfileScreen(username: "jdoex", availability: .available("jdoex")))
        }
        #expect(text(harness.state).contains(ProfileScreen.availableText))
    }

    func asked(_ name: String) -> (ProfileScreen, ScreenContext) {
        let screen = ProfileScreen(username: name, availability: .checking(name))
        return (screen, onboarding(screen, profile: nil).context)
    }

    @Test func theServersAnswerAboutTheNameShowsInline() {
        var (refused, context) = asked("jdoe")
        _ = refused.receive(.availability(.failure(.invalid(fieldErrors: ["characters"], message: "Invalid"))), context)
        #expect(refused.availability == .invalid("jdoe"))
        #expect(refused.usernameProblem == UsernameRules.Problem.characters.sentence)
        #expect(!refused.canSubmit(context))

        var (taken, _) = asked("jdoe")
        _ = taken.receive(.availability(.success(UsernameAvailability(username: "jdoe", available: false))), context)
        #expect(taken.usernameProblem == ProfileScreen.takenText)
        #expect(!taken.canSubmit(context))

        // No answer: not known either way, so Continue lets the server decide.
        var (unknown, _) = asked("jdoe")
        _ = unknown.receive(.availability(.failure(.offline(reason: "refused"))), context)
        #expect(unknown.availability == .idle)
        #expect(unknown.error == APIError.offline(reason: "refused").message)
        #expect(unknown.canSubmit(context))
    }

    @Test func continueIsOffUntilTheNameFollowsTheRules() {
        let harness = ReducerHarness(
            onboarding(ProfileScreen(username: "9j", focus: .cta), profile: nil), exhaustivity: .off)
        #expect(harness.send(.input(.key(.enter))).isEmpty)
        let shown = text(harness.state)
        #expect(shown.contains(UsernameRules.Problem.tooShort.sentence))
        #expect(shown.contains(UsernameRules.Problem.firstCharacter.sentence))
        #expect(harness.state.top.as(ProfileScreen.self)?.isWorking == false)
    }

    @Test func continueSavesAndStandsOnTheRecoveryEmailStepAlone() {
        let harness = ReducerHarness(
            onboarding(
                ProfileScreen(username: "JDoe ", photo: "  ", focus: .cta, availability: .available("jdoe")),
                profile: profile(.profile, username: nil)))
        harness.send(
            .input(.key(.enter)), effects: [.request(Endpoint.UpdateProfile(username: "jdoe", photo: nil), id: 1)]
        ) {
            $0.top = AnyScreen(
                ProfileScreen(
                    username: "JDoe ", photo: "  ", focus: .cta, availability: .available("jdoe"), isWorking: true))
            $0.topAwaits(1, Endpoint.UpdateProfile.self)
        }
        harness.send(.reply(profile(.recoveryEmail), to: RequestID(1))) {
            $0.profile = profile(.recoveryEmail)
            $0.stack = [AnyScreen(RecoveryEmailScreen())]
        }
        // Nothing to go back to: Esc offers the way out (log out), not the finished step.
        harness.send(.input(.key(.escape))) { $0.overlay = .sheet(.confirmLogout) }
    }

    func saving(
        _ screen: ProfileScreen = ProfileScreen(username: "jdoe", photo: "~/me.jpg", focus: .cta)
    )
        -> (ProfileScreen, ScreenContext)
    {
        var screen = screen
        let context = onboarding(screen, profile: nil).context
        _ = screen.perform(key: .enter, context)
        #expect(screen.isWorking)
        return (screen, context)
    }

    @Test func aTakenNameIsSaidInTheFieldAndKeepsWhatWasTyped() {
        var (screen, context) = saving()
        _ = screen.receive(.save(.failure(.taken(message: "Username taken"))), context)
        #expect(screen.usernameProblem == "That username is taken.")
        #expect(screen.username.value == "jdoe")
        #expect(screen.photo.value == "~/me.jpg")
        #expect(!screen.canSubmit(context))
        // Another name: the button is back.
        _ = screen.handle(.key(.character("2")), context)
        #expect(screen.usernameProblem == nil)
        #expect(screen.canSubmit(context))
    }

    @Test func theServersRulesShowInlineAndAPhotoRefusalUnderThePhoto() {
        var (screen, context) = saving()
        _ = screen.receive(
            .save(.failure(.invalid(fieldErrors: ["characters", "first_character"], message: "Invalid"))), context)
        #expect(
            screen.usernameProblem
                == "\(UsernameRules.Problem.characters.sentence) \(UsernameRules.Problem.firstCharacter.sentence)")
        #expect(!screen.canSubmit(context))

        var (other, otherContext) = saving()
        _ = other.receive(.save(.failure(.invalid(fieldErrors: [], message: "The photo is too long."))), otherContext)
        #expect(other.photo.error == "The photo is too long.")
        #expect(other.usernameProblem == nil)
        #expect(other.focus == .photo)
    }

    @Test func offlineSaysSoAndKeepsWhatWasTyped() {
        var (screen, context) = saving()
        _ = screen.receive(.save(.failure(.offline(reason: "refused"))), context)
        #expect(screen.error == APIError.offline(reason: "refused").message)
        #expect(!screen.isWorking)
        #expect(screen.username.value == "jdoe")
        #expect(screen.photo.value == "~/me.jpg")
        #expect(screen.canSubmit(context))
    }

    @Test func fieldsStopAtTheirMaximums() {
        var screen = ProfileScreen()
        let context = onboarding(screen, profile: nil).context
        _ = screen.handle(.paste(String(repeating: "a", count: 100)), context)
        #expect(screen.username.value.count == UsernameRules.maximumLength)
        screen.focus = .photo
        _ = screen.handle(.paste(String(repeating: "p", count: 5000)), context)
        #expect(screen.photo.value.count == ProfileScreen.photoMaximumLength)
    }

    /// Issue 28 item 28: a pasted name longer than allowed is cut and says so, as the phone field
    /// does; before, the rest went without a word. A paste that fits says nothing.
    @Test func aPastedNameTooLongSaysTheRestWasCut() {
        var screen = ProfileScreen()
        let context = onboarding(screen, profile: nil).context
        _ = screen.handle(.paste("jdoe"), context)
        #expect(screen.username.error == nil)
        _ = screen.handle(.paste(String(repeating: "a", count: 40)), context)
        #expect(screen.username.value.count == UsernameRules.maximumLength)
        #expect(screen.username.error == "A username has at most 30 characters: the rest was cut.")
        #expect(text(onboarding(screen, profile: nil)).contains("the rest was cut."))
        _ = screen.handle(.key(.backspace), context)
        #expect(screen.username.error == nil)
        // Full already: the paste adds nothing, and still says why.
        _ = screen.handle(.paste("bb"), context)
        _ = screen.handle(.paste("cc"), context)
        #expect(screen.username.error == "A username has at most 30 characters: the rest was cut.")
    }

    /// Issue 27: another backend's usernames stop at 20, and its 422 says so in `max`: the words say 20,
    /// not the app's own 30; a 422 without bounds falls back to the app's numbers.
    @Test func aTooLongNameSaysTheServersBound() {
        let name = String(repeating: "a", count: 25)
        let harness = ReducerHarness(
            onboarding(ProfileScreen(username: name, focus: .cta), profile: profile(.profile)), exhaustivity: .off)
        harness.send(.input(.key(.enter)))
        let refusal = APIError.from(
            status: 422,
            body: Data(
                #"{"error":{"code":"username_invalid","message":"Too long.","errors":["too_long"],"min":2,"max":20}}"#
                    .utf8),
            retryAfterHeader: nil)
        let bounds = FieldBounds(min: 2, max: 20)
        #expect(refusal == .invalid(fieldErrors: ["too_long"], message: "Too long.", bounds: bounds))
        harness.send(.failure(refusal, to: RequestID(1)))
        #expect((harness.state.top.base as? ProfileScreen)?.username.error == "Use at most 20 characters.")
        #expect(text(harness.state).contains("Use at most 20 characters."))

        let ownBoundsHarness = ReducerHarness(
            onboarding(ProfileScreen(username: name, focus: .cta), profile: profile(.profile)), exhaustivity: .off)
        ownBoundsHarness.send(.input(.key(.enter)))
        ownBoundsHarness.send(.failure(.invalid(fieldErrors: ["too_long"], message: "Too long."), to: RequestID(1)))
        #expect((ownBoundsHarness.state.top.base as? ProfileScreen)?.username.error == "Use at most 30 characters.")
    }

    /// The contract's codes reach the screen as kinds it switches on.
    @Test func usernameCodesMapToTakenAndInvalid() {
        func body(_ code: String, errors: [String]? = nil) -> Data {
            var error: [String: Any] = ["code": code, "message": "m"]
            if let errors { error["errors"] = errors }
            return try! JSONSerialization.data(withJSONObject: ["error": error])
        }
        #expect(
            APIError.from(status: 409, body: body("username_taken"), retryAfterHeader: nil) == .taken(message: "m"))
        #expect(
            APIError.from(status: 422, body: body("username_invalid", errors: ["too_short"]), retryAfterHeader: nil)
                == .invalid(fieldErrors: ["too_short"], message: "m"))
    }

    // MARK: - Recovery email

    func recovery(_ screen: RecoveryEmailScreen) -> AppState { onboarding(screen, profile: profile(.recoveryEmail)) }

    @Test func skipForNowGoesOnWithoutAnEmail() {
        let harness = ReducerHarness(recovery(RecoveryEmailScreen(email: "half@typ")))
        harness.send(
            .input(.key(.control("s"))), effects: [.request(Endpoint.ContinueOnboarding(from: .recoveryEmail), id: 1)]
        ) {
            $0.top = AnyScreen(RecoveryEmailScreen(email: "half@typ", working: .skip))
            $0.topAwaits(1, Endpoint.ContinueOnboarding.self)
        }
        harness.send(.reply(profile(.finish), to: RequestID(1))) {
            $0.profile = profile(.finish)
            $0.stack = [AnyScreen(OnboardingDoneScreen())]
        }
    }

    @Test func theFocusableSkipDoesTheSame() {
        let harness = ReducerHarness(recovery(RecoveryEmailScreen(focus: .skip)), exhaustivity: .off)
        #expect(
            requests(harness.send(.input(.key(.enter)))) == [
                AnyRequest(Endpoint.ContinueOnboarding(from: .recoveryEmail))
            ])
    }

    /// Issue 28 item 22: an Apple or Google sign-up has no phone step, so its onboarding counts three
    /// steps from the profile, and the recovery email does not promise a phone it never had. Before:
    /// "Step 2 of 4" with no step 1, and "Lose your phone, …".
    @Test func aProviderSignUpCountsThreeStepsAndIsNotPromisedAPhone() {
        func provider(_ screen: some ScreenModel, _ step: OnboardingStep) -> AppState {
            var state = onboarding(screen, profile: profile(step, email: "jdoe@mail.com"))
            state.methods = SampleData.appleOnly
            return state
        }
        #expect(text(provider(ProfileScreen(), .profile)).contains("Step 1 of 3  ● ○ ○"))
        let recoveryText = text(provider(RecoveryEmailScreen(), .recoveryEmail))
        #expect(recoveryText.contains("Step 2 of 3  ● ● ○"))
        #expect(!recoveryText.contains("phone"))
        #expect(recoveryText.contains("Can't sign in with Apple? A link sent to this address gets you back in."))
        #expect(
            text(provider(VerifyRecoveryEmailScreen(email: "jdoe@mail.com"), .verifyEmail)).contains("Step 3 of 3"))
        // A phone sign-up keeps its four, the number and its code being the first.
        #expect(text(onboarding(ProfileScreen(), profile: profile(.profile))).contains("Step 2 of 4  ● ● ○ ○"))
        #expect(text(recovery(RecoveryEmailScreen())).contains(RecoveryEmailScreen.whyText))
    }

    /// Issue 48 item 18: an email sign-up went "Step 2 of 4", then "Step 4 of 4": its address was proven by
    /// its code, so the backend passes over the recovery email and its link. It numbers the steps it has, and
    /// "You're all set" numbers none (a phone sign-up that skipped the recovery email never saw a step 4).
    @Test func anEmailSignUpNumbersOnlyTheStepsItSees() {
        func email(_ screen: some ScreenModel, _ step: OnboardingStep) -> AppState {
            var state = onboarding(screen, profile: profile(step, email: "jdoe@mail.com", verified: true))
            state.methods = SampleData.emailOnly
            return state
        }
        #expect(text(email(ProfileScreen(), .profile)).contains("Step 2 of 2  ● ●"))
        let done = text(email(OnboardingDoneScreen(), .finish))
        #expect(done.contains("Done  ● ●"))
        #expect(!done.contains("Step "))
        let phoneDone = text(onboarding(OnboardingDoneScreen(), profile: profile(.finish)))
        #expect(phoneDone.contains("Done  ● ● ● ●"))
        #expect(!phoneDone.contains("Step "))
    }

    /// Issue 48 item 16 (reversing issue 28 item 28): seed 001 shows three rules, and "not similar to email"
    /// "runs server-side only": no fourth line, and Continue is not held back by a rule it does not show.
    @Test func theChecklistShowsThreeRulesAndSimilarityIsTheServers() {
        let similar = RecoveryEmailScreen(
            email: "jdoe@mail.com", password: "jdoe@mail", confirmation: "jdoe@mail", focus: .cta,
            passwordChecked: true)
        let state = recovery(similar)
        #expect(!text(state).contains("Not similar to your email"))
        for label in ["At least 8 characters", "Not a common password", "Not all numbers"] {
            #expect(text(state).contains("✓ \(label)"))
        }
        #expect(similar.canSubmit(state.context))
    }

    func filledRecovery() -> RecoveryEmailScreen {
        RecoveryEmailScreen(
            email: "jdoe@mail.com", password: "violet-harbor-77", confirmation: "violet-harbor-77", focus: .cta)
    }

    /// Issue 28 item 28: the recovery password is typed twice and Ctrl+R shows it, as every other new
    /// password; before, one masked field with nothing to show it.
    @Test func theRecoveryPasswordIsConfirmedAndCtrlRShowsIt() {
        let harness = ReducerHarness(
            recovery(RecoveryEmailScreen(email: "jdoe@mail.com", focus: .password)), exhaustivity: .off)
        for c in "violet-harbor-77" { harness.send(.input(.key(.character(c)))) }
        harness.send(.input(.key(.enter)))
        #expect(harness.state.top.as(RecoveryEmailScreen.self)?.focus == .confirm)
        #expect(text(harness.state).contains("Confirm password"))
        for c in "violet-harbor-78" { harness.send(.input(.key(.character(c)))) }
        #expect(text(harness.state).contains("Passwords don't match."))
        // The rules stay in view at 80×24 while the password is typed again.
        #expect(text(harness.state).contains("✓ Not all numbers"))
        #expect(harness.state.top.as(RecoveryEmailScreen.self)?.canSubmit(harness.state.context) == false)
        #expect(!text(harness.state).contains("violet-harbor"))
        harness.send(.input(.key(.control("r"))))
        #expect(text(harness.state).contains("violet-harbor-77"))
        #expect(text(harness.state).contains("violet-harbor-78"))
        harness.send(.input(.key(.backspace)))
        harness.send(.input(.key(.character("7"))))
        #expect(!text(harness.state).contains("Passwords don't match."))
        #expect(harness.state.top.as(RecoveryEmailScreen.self)?.canSubmit(harness.state.context) == true)
        harness.send(.input(.key(.control("r"))))
        #expect(!text(harness.state).contains("violet-harbor"))
    }

    @Test func continueSendsTheAddressAndPasswordThenWaitsForTheLink() {
        let harness = ReducerHarness(recovery(filledRecovery()))
        let sent = Endpoint.SetRecoveryEmail(email: "jdoe@mail.com", password: "violet-harbor-77")
        harness.send(.input(.key(.enter)), effects: [.request(sent, id: 1)]) {
            $0.top = AnyScreen(
                RecoveryEmailScreen(
                    email: "jdoe@mail.com", password: "violet-harbor-77", confirmation: "violet-harbor-77",
                    focus: .cta, passwordChecked: true, working: .cta))
            $0.topAwaits(1, Endpoint.SetRecoveryEmail.self)
        }
        // The request that carries it never prints it.
        var dump = ""
        Swift.dump([Effect.request(sent, id: 1)], to: &dump)
        #expect(!dump.contains("violet-harbor-77"))
        #expect(!text(harness.state).contains("violet-harbor-77"))
        let waiting = profile(.verifyEmail, email: "jdoe@mail.com")
        harness.send(.reply(waiting, to: RequestID(1)), effects: [tick]) {
            $0.profile = waiting
            $0.stack = [
                AnyScreen(
                    VerifyRecoveryEmailScreen(
                        email: "jdoe@mail.com", resendAfter: start + VerifyRecoveryEmailScreen.resendCooldown))
            ]
            $0.clockTicking = true
        }
        harness.advance(by: 1)
        harness.receive(.tick, effects: [tick])
        #expect(text(harness.state).contains("Resend in 0:29"))
        // The countdown to Resend goes on while the screen waits for the link.
        harness.expectRunning(tick)
    }

    func refused(_ error: APIError, at now: Date? = nil) -> RecoveryEmailScreen {
        var screen = filledRecovery()
        let context = recovery(screen).context
        _ = screen.perform(key: .enter, context)
        var later = context
        later.now = now ?? start
        _ = screen.receive(.save(.failure(error)), later)
        #expect(!screen.isWorking)
        #expect(screen.email.value == "jdoe@mail.com")
        #expect(screen.password.value == "violet-harbor-77")
        return screen
    }

    @Test func theServersRefusalsShowUnderTheirFields() {
        let taken = refused(.taken(message: "Email taken"))
        #expect(taken.email.error == NewEmailScreen.takenText)
        #expect(!taken.canSubmit(recovery(taken).context))

        let weak = refused(.invalid(fieldErrors: ["password_too_similar"], message: "Invalid password"))
        #expect(weak.password.error == PasswordRule.tooSimilar.message)

        let address = refused(.invalid(fieldErrors: [], message: "Please enter a valid email address"))
        #expect(address.email.error == "Please enter a valid email address")

        let alreadySet = refused(.server(status: 409, code: "email_already_set", message: "This account has an email."))
        #expect(alreadySet.error == "This account has an email.")
    }

    /// 429: Continue is off and the banner counts down from retry_after on the app clock.
    @Test func aRateLimitCountsDownThenLifts() {
        var screen = refused(.rateLimited(retryAfter: 60, message: "Too many"))
        var context = recovery(screen).context
        context.now = start + 59
        #expect(!screen.canSubmit(context))
        #expect(
            screen.banner(context) == .rateLimited(until: start + 60, wait: Banner.Wait(lead: "Too many. Try again in"))
        )
        context.now = start + 60
        _ = screen.tick(context)
        #expect(screen.limit == nil)
        #expect(screen.canSubmit(context))
    }

    // MARK: - Verify the recovery email

    func verifying(_ screen: VerifyRecoveryEmailScreen) -> AppState {
        onboarding(screen, profile: profile(.verifyEmail, email: "jdoe@mail.com"))
    }

    @Test func resendWaitsForItsCountdownThenCountsDownAgain() {
        var state = verifying(VerifyRecoveryEmailScreen(email: "jdoe@mail.com", resendAfter: start + 30))
        state.now = start + 29
        let harness = ReducerHarness(state, exhaustivity: .off)
        #expect(requests(harness.send(.input(.key(.character("r"))))).isEmpty)
        #expect(!keymap(for: harness.state).hints.contains { $0.keys.contains(.character("r")) })
        harness.advance(by: 1)
        harness.send(.tick)
        let effects = harness.send(.input(.key(.character("r"))))
        #expect(requests(effects) == [AnyRequest(Endpoint.ResendRegistrationLink(email: "jdoe@mail.com"))])
        let id = try! #require(requestID(effects))
        harness.send(.reply(VerificationResent(message: "sent"), to: id))
        #expect(harness.state.toast?.message == VerifyRecoveryEmailScreen.resentText)
        #expect(harness.state.top.as(VerifyRecoveryEmailScreen.self)?.resendAfter == start + 60)

        // The server's own wait wins when it says one.
        harness.advance(by: 30)
        harness.send(.tick)
        let again = try! #require(requestID(harness.send(.input(.key(.character("r"))))))
        harness.send(.failure(.rateLimited(retryAfter: 90, message: "wait"), to: again))
        #expect(harness.state.top.as(VerifyRecoveryEmailScreen.self)?.resendAfter == start + 150)
    }

    /// The link opened while the step waits: verified, and the profile says where to go next.
    @Test func theLinkOpenedHereVerifiesAndGoesOn() throws {
        let harness = ReducerHarness(verifying(VerifyRecoveryEmailScreen(email: "jdoe@mail.com")), exhaustivity: .off)
        let opened = harness.send(.openLink("https://321.fit/confirm-account?token=tok_recovery"))
        #expect(requests(opened) == [AnyRequest(Endpoint.ConfirmRegistration(token: "tok_recovery"))])
        #expect(
            harness.state.top.as(VerifyingLinkScreen.self)?.link
                == AnyLinkPurpose(RecoveryEmailLink(email: "jdoe@mail.com")))
        let confirmID = try #require(requestID(opened))
        harness.advance(by: VerifyingLinkScreen.minimumShown)
        let confirmed = harness.send(.reply(RegistrationConfirmed(email: "jdoe@mail.com"), to: confirmID))
        #expect(requests(confirmed) == [AnyRequest(Endpoint.GetProfile())])
        let screen = try #require(harness.state.top.as(VerifyRecoveryEmailScreen.self))
        #expect(screen.verified)
        #expect(text(harness.state).contains(VerifyRecoveryEmailScreen.verifiedText))
        let loadID = try #require(requestID(confirmed))
        let done = profile(.finish, email: "jdoe@mail.com", verified: true)
        harness.send(.reply(done, to: loadID))
        #expect(harness.state.stack == [AnyScreen(OnboardingDoneScreen())])
        #expect(harness.state.profile == done)
        #expect(harness.state.defects.isEmpty)
    }

    @Test func theLinkFromTheOutboxVerifiesToo() throws {
        var state = verifying(VerifyRecoveryEmailScreen(email: "jdoe@mail.com"))
        let message = OutboxMessage(
            id: 7, channel: "email", to: "jdoe@mail.com", kind: "email_verify_link", purpose: RegistrationLink.purpose,
            code: nil, link: "https://321.fit/confirm-account?token=tok_box", token: "tok_box", sentAt: start,
            status: .live)
        state.overlay = .outbox(OutboxPanel(messages: [message]))
        let harness = ReducerHarness(state, exhaustivity: .off)
        let effects = harness.send(.input(.key(.enter)))
        #expect(requests(effects) == [AnyRequest(Endpoint.ConfirmRegistration(token: "tok_box"))])
        #expect(
            harness.state.top.as(VerifyingLinkScreen.self)?.link
                == AnyLinkPurpose(RecoveryEmailLink(email: "jdoe@mail.com")))
    }

    @Test func aBackendStillOnTheStepAfterTheLinkIsToldToGoOn() {
        var screen = VerifyRecoveryEmailScreen(email: "jdoe@mail.com", work: .loadingProfile, verified: true)
        let context = verifying(screen).context
        let commands = screen.receive(
            .profile(.success(profile(.verifyEmail, email: "jdoe@mail.com", verified: true))), context)
        #expect(
            commands == [
                .call(
                    Endpoint.ContinueOnboarding(from: .verifyEmail), VerifyRecoveryEmailScreen.Reply.continueOnboarding)
            ])
        #expect(screen.work == .continuing)
    }

    @Test func continueWithoutVerifying() {
        let harness = ReducerHarness(verifying(VerifyRecoveryEmailScreen(email: "jdoe@mail.com")))
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ContinueOnboarding(from: .verifyEmail), id: 1)])
        {
            $0.top = AnyScreen(VerifyRecoveryEmailScreen(email: "jdoe@mail.com", work: .continuing))
            $0.topAwaits(1, Endpoint.ContinueOnboarding.self)
        }
        let finish = profile(.finish, email: "jdoe@mail.com")
        harness.send(.reply(finish, to: RequestID(1))) {
            $0.profile = finish
            $0.stack = [AnyScreen(OnboardingDoneScreen())]
        }
    }

    // MARK: - Done

    @Test func doneGoesToSettings() {
        let harness = ReducerHarness(onboarding(OnboardingDoneScreen(), profile: profile(.finish)))
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ContinueOnboarding(from: .finish), id: 1)]) {
            $0.top = AnyScreen(OnboardingDoneScreen(isWorking: true))
            $0.topAwaits(1, Endpoint.ContinueOnboarding.self)
        }
        harness.send(.reply(profile(.complete), to: RequestID(1))) {
            $0.profile = profile(.complete)
            $0.stack = [AnyScreen(SettingsScreen())]
        }
    }

    /// Finishing is bookkeeping: offline, the person still goes on (the next start shows it again).
    @Test func doneOfflineStillGoesToSettings() {
        let harness = ReducerHarness(onboarding(OnboardingDoneScreen(), profile: profile(.finish)), exhaustivity: .off)
        let id = try! #require(requestID(harness.send(.input(.key(.enter)))))
        harness.send(.failure(.offline(reason: "refused"), to: id))
        #expect(harness.state.stack == [AnyScreen(SettingsScreen())])
        #expect(harness.state.banner == .offline)
        #expect(harness.state.profile == profile(.finish))
    }

    // MARK: - Settings' reminder

    @Test func settingsRemindsOfAnUnverifiedEmailUntilItIsVerified() throws {
        var state = AppState(now: start)
        state.methods = SampleData.phoneOnly
        #expect(!text(state).contains("Verify your email"))
        state.profile = profile(.complete)
        #expect(!text(state).contains("Verify your email"))
        state.profile = profile(.complete, email: "jdoe@mail.com", verified: true)
        #expect(!text(state).contains("Verify your email"))
        state.profile = profile(.complete, email: "jdoe@mail.com")
        #expect(text(state).contains("Verify your email: open the link we sent to jdoe@mail.com."))

        let harness = ReducerHarness(state, exhaustivity: .off)
        let effects = harness.send(.input(.key(.character("v"))))
        #expect(requests(effects) == [AnyRequest(Endpoint.ResendRegistrationLink(email: "jdoe@mail.com"))])
        harness.send(.reply(VerificationResent(message: "sent"), to: try #require(requestID(effects))))
        #expect(harness.state.toast?.message == SettingsScreen.resentText)
        #expect(text(harness.state).contains("Resend in 0:30"))

        // The link opened from anywhere while signed in: the reminder goes.
        let asked = harness.send(.openLink("https://321.fit/confirm-account?token=tok_later"))
        #expect(requests(asked) == [AnyRequest(Endpoint.InspectLink(token: "tok_later"))])
        let live = LinkInfo(kind: .init(.register), state: .init(.live), expiresAt: start + 86_400)
        let opened = harness.send(.reply(live, to: try #require(requestID(asked))))
        harness.advance(by: VerifyingLinkScreen.minimumShown)
        harness.send(.reply(RegistrationConfirmed(email: "jdoe@mail.com"), to: try #require(requestID(opened))))
        #expect(harness.state.top.is(ScreenType(SettingsScreen.self)))
        #expect(harness.state.profile?.emailVerified == true)
        #expect(!text(harness.state).contains("Verify your email"))
    }

    @Test func signingOutForgetsTheProfile() {
        var settings = AppState(now: start)
        settings.methods = SampleData.phoneOnly
        settings.methodsFetchedAt = start
        settings.profile = profile(.complete, email: "jdoe@mail.com")
        let harness = ReducerHarness(
            settings.topWaiting(Endpoint.ResendRegistrationLink.self, SettingsScreen.Reply.resend))
        harness.send(.failure(.signedOut), effects: [.signOutLocally]) {
            $0.answered()
            $0.methods = nil
            $0.methodsFetchedAt = nil
            $0.profile = nil
            $0.stack = [AnyScreen(SignInScreen(notice: SignInScreen.sessionExpiredText))]
        }
    }

    /// Issue 28 item 8: every onboarding step offers a way out: Esc asks to log out (the sheet opens on
    /// Cancel), and logging out lands on the sign-in screen.
    @Test func escOnAnOnboardingStepAsksToLogOut() {
        let steps: [AnyScreen] = [
            AnyScreen(ProfileScreen()), AnyScreen(RecoveryEmailScreen()),
            AnyScreen(VerifyRecoveryEmailScreen(email: "jdoe@mail.com")), AnyScreen(OnboardingDoneScreen()),
        ]
        for step in steps {
            var state = onboarding(ProfileScreen(), profile: profile(.profile, username: nil))
            state.stack = [step]
            #expect(keymap(for: state).hints.contains(KeyHint([.escape], "Log out")), "\(step.id)")
            let harness = ReducerHarness(state)
            harness.send(.input(.key(.escape))) { $0.overlay = .sheet(.confirmLogout) }
        }
        let harness = ReducerHarness(onboarding(ProfileScreen(), profile: profile(.profile, username: nil)))
        harness.send(.input(.key(.escape))) { $0.overlay = .sheet(.confirmLogout) }
        harness.send(.input(.key(.up))) { $0.overlay = .sheet(Sheet.confirmLogout.onDestructive) }
        // Logged out here at once (issue 27), the backend told in the background.
        harness.send(.input(.key(.enter)), effects: [.logOut]) {
            $0.overlay = nil
            $0.stack = [AnyScreen(SignInScreen(notice: AppRoutes.loggedOutText))]
            $0.methods = nil
            $0.methodsFetchedAt = nil
            $0.profile = nil
        }
    }
}
