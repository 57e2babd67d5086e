/// The way in (seed 004): one combined sign-in and sign-up. Continue with phone or email sends a code
/// (the phone feature's number and code screens serve it); Apple and Google go through the reference
/// backend's simulated consent; Email & password is seed 002's form. Every way lands through
/// `Command.signedIn`.
enum SignInFeature: Feature {
    static let screens: [any ScreenModel.Type] = [SignInScreen.self, SignInEmailScreen.self]
}
