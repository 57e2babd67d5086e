import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

@testable import AccessBackend

/// Seed 003's profile creation and recovery setup: a sign-up chooses a username (photo optional), may
/// leave a recovery email with a password or skip it, may go on without opening the emailed link, and
/// finishes; every account from before onboarding is complete.
@Suite struct OnboardingTests {
    static let newPhone = "+995511123456"
    static let newEmail = "new.user@mail.com"
    static let testCode = "135790"

    // MARK: Helpers

    /// Signs up the new-user scenario's unknown phone.
    private func signUpByPhone(_ backend: TestBackend) async throws -> SignedIn {
        let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: Self.newPhone).decode()
        return try await SignInCodeTests.verify(backend, challenge.challengeId, Self.testCode).decode()
    }

    private func signUpByEmail(_ backend: TestBackend) async throws -> SignedIn {
        let challenge: SignInChallenge = try await SignInCodeTests.start(backend, email: Self.newEmail).decode()
        return try await SignInCodeTests.verify(backend, challenge.challengeId, Self.testCode).decode()
    }

    /// onboarding-midway's user, signed in by phone: at the recovery email step.
    private func signInMidway(_ backend: TestBackend) async throws -> SignedIn {
        let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511200000").decode()
        return try await SignInCodeTests.verify(backend, challenge.challengeId, "246810").decode()
    }

    private func putProfile(
        _ backend: TestBackend, _ username: String, photo: String? = nil, token: String
    ) async throws -> Reply {
        try await backend.send(
            .PUT, "/me/profile",
            raw: try APIJSON.makeContractEncoder().encode(ProfileBody(username: username, photo: photo)),
            token: token)
    }

    private func available(_ backend: TestBackend, _ username: String, token: String) async throws -> Reply {
        let query = username.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? username
        return try await backend.get("/auth/username-available?username=\(query)", token: token)
    }

    private func setRecoveryEmail(
        _ backend: TestBackend, _ email: String, _ password: String = "violet-harbor-77", token: String
    ) async throws -> Reply {
        try await backend.post("/me/recovery-email", RecoveryEmailBody(email: email, password: password), token: token)
    }

    private func proceed(_ backend: TestBackend, from: OnboardingStep, token: String) async throws -> Reply {
        try await backend.post("/me/onboarding/continue", ContinueOnboardingBody(from: from), token: token)
    }

    private func profile(_ backend: TestBackend, token: String) async throws -> Profile {
        try await backend.get("/me/profile", token: token).decode()
    }

    private func login(_ backend: TestBackend, _ email: String, _ password: String) async throws -> Reply {
        try await backend.post(
            "/auth/login", PasswordLoginBody(email: email, password: password, device: SignInCodeTests.device))
    }

    private func confirm(_ backend: TestBackend, _ token: String) async throws -> Reply {
        try await backend.post("/auth/register/confirm", EmailLinkConfirmBody(token: token))
    }

    private func lastRegistrationLink(_ backend: TestBackend, to email: String) async throws -> String {
        let mail = try await backend.outbox().last { $0.to == email && $0.kind == "email_verify_link" }
        return try #require(mail?.token)
    }

    // MARK: Where an account starts

    @Test func aPhoneSignUpStartsAtTheProfileStep() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let signedIn = try await signUpByPhone(backend)
            #expect(signedIn.isNewUser)
            let profile = try #require(signedIn.profile)
            #expect(profile.onboardingStep.known == .profile)
            #expect(profile.username == nil && profile.photo == nil && profile.email == nil)
            let me: CurrentUser = try await backend.get("/auth/me", token: signedIn.session.accessToken).decode()
            #expect(me.profile == profile)
            #expect(try await self.profile(backend, token: signedIn.session.accessToken) == profile)
        }
    }

    @Test func anAccountFromBeforeOnboardingIsComplete() async throws {
        try await TestBackend.with(scenario: "default") { backend in
            let token = try await backend.signIn().accessToken
            let profile = try await self.profile(backend, token: token)
            #expect(profile.onboardingStep.known == .complete)
            #expect(profile.email == "jdoe@mail.com" && profile.emailVerified)
            let me: CurrentUser = try await backend.get("/auth/me", token: token).decode()
            #expect(me.profile?.onboardingStep.known == .complete)
        }
    }

    @Test func aReturningSignInIsNotSentBackIntoOnboarding() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511100000").decode()
            let code = try await backend.lastCode(to: "+995511100000")
            let signedIn: SignedIn = try await SignInCodeTests.verify(backend, challenge.challengeId, code).decode()
            #expect(signedIn.profile?.onboardingStep.known == .complete)
        }
    }

    @Test func signingInMidwayResumesWhereTheAccountStopped() async throws {
        try await TestBackend.with(scenario: "onboarding-midway") { backend in
            let signedIn = try await signInMidway(backend)
            #expect(!signedIn.isNewUser)
            #expect(signedIn.profile?.onboardingStep.known == .recoveryEmail)
            #expect(signedIn.profile?.username == "midway")
        }
    }

    // MARK: The profile step

    @Test func savingTheProfileMovesAPhoneAccountOnToTheRecoveryEmail() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let token = try await signUpByPhone(backend).session.accessToken
            let saved: Profile = try await putProfile(backend, " Casey.Q ", photo: "~/me.png", token: token).decode()
            #expect(saved.username == "casey.q")
            #expect(saved.photo == "~/me.png")
            #expect(saved.onboardingStep.known == .recoveryEmail)
            // Later saves only update; the step stays.
            let renamed: Profile = try await putProfile(backend, "casey_r", token: token).decode()
            #expect(renamed.username == "casey_r" && renamed.photo == nil)
            #expect(renamed.onboardingStep.known == .recoveryEmail)
        }
    }

    @Test func anEmailSignUpGoesFromTheProfileStraightToFinish() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let signedIn = try await signUpByEmail(backend)
            #expect(signedIn.profile?.onboardingStep.known == .profile)
            let saved: Profile = try await putProfile(backend, "casey", token: signedIn.session.accessToken).decode()
            #expect(saved.onboardingStep.known == .finish)
            #expect(saved.emailVerified)
        }
    }

    @Test(arguments: [
        ("ab", ["too_short"]),
        (String(repeating: "a", count: 31), ["too_long"]),
        ("bad name!", ["characters"]),
        ("1abc", ["first_character"]),
        ("_", ["too_short", "first_character"]),
    ])
    func aNameBreakingARuleIs422WithTheRules(name: String, rules: [String]) async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let token = try await signUpByPhone(backend).session.accessToken
            let refused = try await putProfile(backend, name, token: token)
            #expect(refused.status == 422)
            #expect(refused.error?.code == "username_invalid")
            #expect(refused.error?.errors == rules)
            // The server's own bounds, so a client's words say its numbers (issue 27: another's were 20).
            #expect(refused.error?.min == UsernameRules.minimumLength)
            #expect(refused.error?.max == UsernameRules.maximumLength)
            let checked = try await available(backend, name, token: token)
            #expect(checked.status == 422)
            #expect(checked.error?.errors == rules)
            #expect(checked.error?.min == 3)
            #expect(checked.error?.max == 30)
            #expect(try await profile(backend, token: token).onboardingStep.known == .profile)
        }
    }

    @Test func aRuleAbidingNameIsSaved() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let token = try await signUpByPhone(backend).session.accessToken
            let longest = "a" + String(repeating: "b", count: UsernameRules.maximumLength - 1)
            #expect(try await putProfile(backend, "abc", token: token).status == 200)
            #expect(try await putProfile(backend, longest, token: token).status == 200)
        }
    }

    @Test func emptyFieldsAre422InvalidField() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let token = try await signUpByPhone(backend).session.accessToken
            let emptyName = try await putProfile(backend, "  ", token: token)
            #expect(emptyName.status == 422 && emptyName.error?.code == "invalid_field")
            let emptyPhoto = try await putProfile(backend, "casey", photo: "", token: token)
            #expect(emptyPhoto.status == 422 && emptyPhoto.error?.code == "invalid_field")
            let longPhoto = try await putProfile(
                backend, "casey", photo: String(repeating: "p", count: 1025), token: token)
            #expect(longPhoto.status == 422 && longPhoto.error?.code == "invalid_field")
            let longestPhoto = try await putProfile(
                backend, "casey", photo: String(repeating: "p", count: 1024), token: token)
            #expect(longestPhoto.status == 200)
            let emptyQuery = try await available(backend, "", token: token)
            #expect(emptyQuery.status == 422 && emptyQuery.error?.code == "invalid_parameter")
            // A missing parameter never reaches the service: the contract layer's 400, as for every operation.
            let missingQuery = try await backend.get("/auth/username-available", token: token)
            #expect(missingQuery.status == 400 && missingQuery.error?.code == "bad_request")
        }
    }

    @Test func aTakenNameIs409WhateverItsCase() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let token = try await signUpByPhone(backend).session.accessToken
            let taken = try await putProfile(backend, "JDoe", token: token)
            #expect(taken.status == 409)
            #expect(taken.error?.code == "username_taken")
            let body = String(decoding: taken.data, as: UTF8.self)
            #expect(!body.contains("usr_jdoe") && !body.contains("511100001"))
            let checked: UsernameAvailability = try await available(backend, "JDOE", token: token).decode()
            #expect(checked.username == "jdoe" && !checked.available)
            let free: UsernameAvailability = try await available(backend, "jdoe2", token: token).decode()
            #expect(free.available)
            #expect(try await profile(backend, token: token).username == nil)
        }
    }

    @Test func onesOwnNameIsAvailableToOneself() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let token = try await signUpByPhone(backend).session.accessToken
            #expect(try await putProfile(backend, "casey", token: token).status == 200)
            let own: UsernameAvailability = try await available(backend, "Casey", token: token).decode()
            #expect(own.available)
            #expect(try await putProfile(backend, "CASEY", token: token).status == 200)
            // Someone else sees it taken.
            let other = try await signUpByEmail(backend).session.accessToken
            let seen: UsernameAvailability = try await available(backend, "casey", token: other).decode()
            #expect(!seen.available)
        }
    }

    @Test func aDeletedAccountsNameIsFree() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let first = try await signUpByPhone(backend).session.accessToken
            #expect(try await putProfile(backend, "casey", token: first).status == 200)
            _ = try await backend.advance(seconds: SendLimits.cooldown)
            let requested: OTPRequestAccepted = try await backend.requestOTP(Self.newPhone, .reauth, token: first)
                .decode()
            let code = try await backend.lastCode(to: Self.newPhone)
            let verified: VerifyOTPResult = try await backend.verify(requested.requestId, code, token: first).decode()
            let reauth = try #require(verified.reauth?.reauthToken)
            #expect(try await backend.send(.DELETE, "/me", token: first, reauth: reauth).status == 200)
            let second = try await signUpByEmail(backend).session.accessToken
            #expect(try await putProfile(backend, "casey", token: second).status == 200)
        }
    }

    /// The uniqueness check reads in the transaction that writes: two people racing for one free name
    /// never both get it.
    @Test func twoPeopleRacingForOneNameGetOne200AndOne409() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let phoneUser = try await signUpByPhone(backend).session.accessToken
            let emailUser = try await signUpByEmail(backend).session.accessToken
            for round in 0..<ConcurrentRuleTests.rounds {
                let name = "racer\(round)"
                async let first = putProfile(backend, name, token: phoneUser)
                async let second = putProfile(backend, name, token: emailUser)
                let replies = try await [first, second]
                #expect(replies.map(\.status).sorted() == [200, 409], "round \(round)")
                #expect(replies.compactMap(\.error?.code) == ["username_taken"], "round \(round)")
                let holders = try await [
                    profile(backend, token: phoneUser).username, profile(backend, token: emailUser).username,
                ]
                #expect(holders.filter { $0 == name }.count == 1, "round \(round)")
            }
        }
    }

    // MARK: The recovery email

    @Test func aRecoveryEmailIsSavedUnverifiedAndItsLinkSent() async throws {
        try await TestBackend.with(scenario: "onboarding-midway") { backend in
            let token = try await signInMidway(backend).session.accessToken
            let reply = try await setRecoveryEmail(backend, "Casey@Mail.com", token: token)
            #expect(reply.status == 202)
            let saved: Profile = try reply.decode()
            #expect(saved.email == "Casey@mail.com" || saved.email?.lowercased() == "casey@mail.com")
            #expect(!saved.emailVerified)
            #expect(saved.onboardingStep.known == .verifyEmail)
            let mail = try #require(try await backend.outbox().last)
            #expect(mail.kind == "email_verify_link" && mail.purpose == "register")
            #expect(mail.to.lowercased() == "casey@mail.com")
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(methods.hasPassword)
        }
    }

    @Test func theRegistrationLinkVerifiesTheRecoveryEmailAndMovesOnToFinish() async throws {
        try await TestBackend.with(scenario: "onboarding-midway") { backend in
            let token = try await signInMidway(backend).session.accessToken
            #expect(try await setRecoveryEmail(backend, "casey@mail.com", token: token).status == 202)
            // Unverified: password login is refused until the link is opened.
            let early = try await login(backend, "casey@mail.com", "violet-harbor-77")
            #expect(early.status == 403 && early.error?.code == "email_unverified")
            let link = try await lastRegistrationLink(backend, to: "casey@mail.com")
            #expect(try await confirm(backend, link).status == 200)
            let after = try await profile(backend, token: token)
            #expect(after.onboardingStep.known == .finish && after.emailVerified)
            let signedIn: SignedIn = try await login(backend, "casey@mail.com", "violet-harbor-77").decode()
            #expect(signedIn.session.userId == "usr_midway")
            #expect(signedIn.profile?.onboardingStep.known == .finish)
        }
    }

    @Test func theLinkResendsThroughRegistrationsResend() async throws {
        try await TestBackend.with(scenario: "onboarding-midway") { backend in
            let token = try await signInMidway(backend).session.accessToken
            #expect(try await setRecoveryEmail(backend, "casey@mail.com", token: token).status == 202)
            let first = try await lastRegistrationLink(backend, to: "casey@mail.com")
            _ = try await backend.advance(seconds: SendLimits.cooldown)
            let resent = try await backend.post("/auth/register/resend", EmailOnlyBody(email: "casey@mail.com"))
            #expect(resent.status == 202)
            let second = try await lastRegistrationLink(backend, to: "casey@mail.com")
            #expect(first != second)
            #expect(try await confirm(backend, first).status == 410)
            #expect(try await confirm(backend, second).status == 200)
        }
    }

    @Test func anEmailedSignInCodeAlsoVerifiesTheRecoveryEmail() async throws {
        try await TestBackend.with(scenario: "onboarding-midway") { backend in
            let token = try await signInMidway(backend).session.accessToken
            #expect(try await setRecoveryEmail(backend, "casey@mail.com", token: token).status == 202)
            _ = try await backend.advance(seconds: SendLimits.cooldown)
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, email: "casey@mail.com").decode()
            let code = try await backend.lastCode(to: "casey@mail.com")
            let signedIn: SignedIn = try await SignInCodeTests.verify(backend, challenge.challengeId, code).decode()
            #expect(signedIn.session.userId == "usr_midway")
            #expect(signedIn.profile?.onboardingStep.known == .finish)
            #expect(signedIn.profile?.emailVerified == true)
        }
    }

    @Test func recoveryEmailRefusalsKeepTheirCodes() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let token = try await signUpByPhone(backend).session.accessToken
            let taken = try await setRecoveryEmail(backend, "JDOE@mail.com", token: token)
            #expect(taken.status == 409 && taken.error?.code == "email_taken")
            #expect(!String(decoding: taken.data, as: UTF8.self).contains("usr_someone"))
            let invalid = try await setRecoveryEmail(backend, "casey@", token: token)
            #expect(invalid.status == 422 && invalid.error?.code == "invalid_email")
            let weak = try await setRecoveryEmail(backend, "casey@mail.com", "12345678", token: token)
            #expect(weak.status == 422 && weak.error?.code == "password_invalid")
            #expect(weak.error?.errors?.contains("password_all_digits") == true)
            let similar = try await setRecoveryEmail(backend, "casey.morgan@mail.com", "caseymorgan", token: token)
            #expect(similar.status == 422)
            #expect(similar.error?.errors == ["password_too_similar"])
            // Nothing was saved or sent.
            #expect(try await profile(backend, token: token).email == nil)
            #expect(try await backend.outbox().contains { $0.kind == "email_verify_link" } == false)
        }
    }

    /// Seed 001's 7-day hold covers a recovery email as every other way of claiming an address.
    @Test func aDeletedAccountsEmailIsHeldForSevenDays() async throws {
        try await TestBackend.with(scenario: "default") { backend in
            let deleted = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: deleted)
            #expect(try await backend.send(.DELETE, "/me", token: deleted, reauth: grant.reauthToken).status == 200)
            let held = try await setRecoveryEmail(backend, "jdoe@mail.com", token: try await signUpWithAnyCode(backend))
            #expect(held.status == 409 && held.error?.code == "recently_deleted")
            _ = try await backend.advance(seconds: DeletionRules.holdDuration)
            let freed = try await setRecoveryEmail(
                backend, "jdoe@mail.com", token: try await signUpWithAnyCode(backend))
            #expect(freed.status == 202)
        }
    }

    /// Signs in by the new phone with the code the outbox holds (scenarios without a test code for it).
    private func signUpWithAnyCode(_ backend: TestBackend) async throws -> String {
        let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: Self.newPhone).decode()
        let code = try await backend.lastCode(to: Self.newPhone)
        let signedIn: SignedIn = try await SignInCodeTests.verify(backend, challenge.challengeId, code).decode()
        return signedIn.session.accessToken
    }

    @Test func anAccountWithAnEmailIsRefusedASecondOne() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let token = try await signUpByEmail(backend).session.accessToken
            let refused = try await setRecoveryEmail(backend, "casey@mail.com", token: token)
            #expect(refused.status == 409 && refused.error?.code == "email_already_set")
        }
    }

    @Test func theEmailSendLimitsCountForTheAddress() async throws {
        try await TestBackend.with(scenario: "onboarding-midway") { backend in
            let token = try await signInMidway(backend).session.accessToken
            // Anyone's resend to the address starts its 30 s cooldown.
            #expect(
                try await backend.post("/auth/register/resend", EmailOnlyBody(email: "casey@mail.com")).status == 202)
            let early = try await setRecoveryEmail(backend, "casey@mail.com", token: token)
            #expect(early.status == 429)
            #expect(early.error?.limit == "cooldown")
            #expect(try await profile(backend, token: token).email == nil)
            _ = try await backend.advance(seconds: SendLimits.cooldown)
            #expect(try await setRecoveryEmail(backend, "casey@mail.com", token: token).status == 202)
        }
    }

    // MARK: Going on

    @Test func skippingTheRecoveryEmailGoesToFinishThenComplete() async throws {
        try await TestBackend.with(scenario: "onboarding-midway") { backend in
            let token = try await signInMidway(backend).session.accessToken
            let skipped: Profile = try await proceed(backend, from: .recoveryEmail, token: token).decode()
            #expect(skipped.onboardingStep.known == .finish && skipped.email == nil)
            let finished: Profile = try await proceed(backend, from: .finish, token: token).decode()
            #expect(finished.onboardingStep.known == .complete)
            // Repeating a step already left answers where the account stands.
            let again = try await proceed(backend, from: .recoveryEmail, token: token)
            #expect(again.status == 200)
            #expect(try again.decode(Profile.self).onboardingStep.known == .complete)
            #expect(try await proceed(backend, from: .finish, token: token).status == 200)
            let pastComplete = try await proceed(backend, from: .complete, token: token)
            #expect(pastComplete.status == 409 && pastComplete.error?.code == "onboarding_step")
        }
    }

    @Test func goingOnWithoutVerifyingKeepsTheReminder() async throws {
        try await TestBackend.with(scenario: "onboarding-midway") { backend in
            let token = try await signInMidway(backend).session.accessToken
            #expect(try await setRecoveryEmail(backend, "casey@mail.com", token: token).status == 202)
            let unverified: Profile = try await proceed(backend, from: .verifyEmail, token: token).decode()
            #expect(unverified.onboardingStep.known == .finish && !unverified.emailVerified)
            // Opening the link later verifies the address and leaves the step alone.
            #expect(
                try await confirm(backend, try await lastRegistrationLink(backend, to: "casey@mail.com")).status == 200)
            let verified = try await profile(backend, token: token)
            #expect(verified.onboardingStep.known == .finish && verified.emailVerified)
        }
    }

    @Test func aStepNotReachedYetIs409() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let token = try await signUpByPhone(backend).session.accessToken
            for step in [OnboardingStep.profile, .recoveryEmail, .verifyEmail, .finish] {
                let refused = try await proceed(backend, from: step, token: token)
                #expect(refused.status == 409, "\(step)")
                #expect(refused.error?.code == "onboarding_step", "\(step)")
            }
            #expect(try await profile(backend, token: token).onboardingStep.known == .profile)
            // Past the profile step, asking to leave it is harmless.
            #expect(try await putProfile(backend, "casey", token: token).status == 200)
            let past = try await proceed(backend, from: .profile, token: token)
            #expect(past.status == 200)
            #expect(try past.decode(Profile.self).onboardingStep.known == .recoveryEmail)
        }
    }

    @Test func aRegistrationGoesThroughOnboardingAfterItsLink() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let registered = try await backend.post(
                "/auth/register",
                RegisterBody(email: "fresh@mail.com", password: "violet-harbor-77", device: SignInCodeTests.device))
            #expect(registered.status == 201)
            #expect(
                try await confirm(backend, try await lastRegistrationLink(backend, to: "fresh@mail.com")).status == 200)
            let signedIn: SignedIn = try await login(backend, "fresh@mail.com", "violet-harbor-77").decode()
            #expect(signedIn.profile?.onboardingStep.known == .profile)
            let saved: Profile = try await putProfile(backend, "fresh", token: signedIn.session.accessToken).decode()
            #expect(saved.onboardingStep.known == .finish)
        }
    }

    @Test func theUnverifiedScenarioShowsTheReminderUntilTheLink() async throws {
        try await TestBackend.with(scenario: "onboarding-unverified") { backend in
            let token = try await backend.signIn().accessToken
            let before = try await profile(backend, token: token)
            #expect(before.onboardingStep.known == .complete)
            #expect(before.email == "later@mail.com" && !before.emailVerified)
            #expect(
                try await confirm(backend, try await lastRegistrationLink(backend, to: "later@mail.com")).status == 200)
            let after = try await profile(backend, token: token)
            #expect(after.onboardingStep.known == .complete && after.emailVerified)
        }
    }

    @Test func theStepOrderPassesOverWhatAnAccountAlreadyHas() {
        func after(_ step: OnboardingStep, hasEmail: Bool, verified: Bool) -> OnboardingStep {
            OnboardingService.step(after: step, hasEmail: hasEmail, emailVerified: verified)
        }
        #expect(after(.profile, hasEmail: false, verified: true) == .recoveryEmail)
        #expect(after(.profile, hasEmail: true, verified: false) == .verifyEmail)
        #expect(after(.profile, hasEmail: true, verified: true) == .finish)
        #expect(after(.recoveryEmail, hasEmail: false, verified: true) == .finish)
        #expect(after(.recoveryEmail, hasEmail: true, verified: false) == .verifyEmail)
        #expect(after(.recoveryEmail, hasEmail: true, verified: true) == .finish)
        #expect(after(.verifyEmail, hasEmail: true, verified: false) == .finish)
        #expect(after(.finish, hasEmail: false, verified: true) == .complete)
    }
}
