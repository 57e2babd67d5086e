import AccessCore
import Testing

/// The one definition of "a sign-in method", shared by app, backend and scenario checks.
@Suite struct SignInMethodsTests {
    @Test func anEmailCountsByItselfPasswordOrNot() {
        let emailOnly = SignInMethods(phone: false, email: true, apple: false, google: false)
        #expect(emailOnly.count == 1)
        #expect(emailOnly.isOnly(.email))
    }

    @Test func onlyMeansSetUpAndNothingElse() {
        let phoneAndEmail = SignInMethods(phone: true, email: true, apple: false, google: false)
        #expect(!phoneAndEmail.isOnly(.phone))
        #expect(phoneAndEmail.all == [.phone, .email])
        let appleOnly = SignInMethods(phone: false, email: false, apple: true, google: false)
        #expect(appleOnly.isOnly(.apple))
        #expect(!appleOnly.isOnly(.google))
        let none = SignInMethods(phone: false, email: false, apple: false, google: false)
        #expect(none.count == 0)
        #expect(!none.isOnly(.phone))
    }
}

/// "Verify it's you": what may verify a change, shared by the app's picker and the backend (issue 25,
/// defects 8 and 10).
@Suite struct ReauthRuleTests {
    let every = ReauthRule(
        methods: SignInMethods(phone: true, email: true, apple: true, google: true), hasPassword: true)

    @Test func everyFactorButTheTargetInThePickersOrder() {
        #expect(every.factors(for: .phone) == [.password, .email, .apple, .google])
        #expect(every.factors(for: .email) == [.password, .apple, .google, .phone])
        #expect(every.factors(for: .apple) == [.password, .email, .google, .phone])
        #expect(every.factors(for: .password) == [.email, .apple, .google, .phone])
        #expect(every.factors(for: nil) == [.password, .email, .apple, .google, .phone])
    }

    @Test func aPasswordVerifiesAChangeOfTheOnlyEmail() {
        let emailOnly = ReauthRule(
            methods: SignInMethods(phone: false, email: true, apple: false, google: false), hasPassword: true)
        #expect(emailOnly.factors(for: .email) == [.password])
        #expect(!emailOnly.sessionSuffices(for: .email))
        // The password itself is verified by the email.
        #expect(emailOnly.factors(for: .password) == [.email])
    }

    @Test func theSessionSufficesOnlyWithNothingElseToVerifyWith() {
        let emailNoPassword = ReauthRule(
            methods: SignInMethods(phone: false, email: true, apple: false, google: false), hasPassword: false)
        #expect(emailNoPassword.sessionSuffices(for: .email))
        let phoneOnly = ReauthRule(
            methods: SignInMethods(phone: true, email: false, apple: false, google: false), hasPassword: false)
        #expect(phoneOnly.sessionSuffices(for: .phone))
        #expect(!phoneOnly.sessionSuffices(for: nil))
        #expect(!every.sessionSuffices(for: .phone))
    }

    @Test func aGrantNeverVerifiesAChangeOfItsOwnMethod() {
        for factor in ReauthFactor.allCases {
            #expect(!ReauthRule.grant(factor, verifies: factor))
            #expect(ReauthRule.grant(factor, verifies: nil))
        }
        #expect(ReauthRule.grant(.password, verifies: .phone))
        #expect(ReauthRule.grant(.google, verifies: .apple))
        #expect(SignInMethod.allCases.map(\.reauthFactor) == [.phone, .email, .apple, .google, .passkey])
    }
}
