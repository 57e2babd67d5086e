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
