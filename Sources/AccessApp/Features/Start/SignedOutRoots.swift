/// The screens a signed-out app stands on: a refused session found there needs no sign-in screen on top.
enum SignedOutRoots {
    static let types: [ScreenType] = [
        ScreenType(WelcomeScreen.self), ScreenType(SignInScreen.self), ScreenType(LoggedOutScreen.self),
        ScreenType(SessionCheckScreen.self), ScreenType(AccountDeletedScreen.self),
    ]

    static func contains(_ screen: AnyScreen) -> Bool { types.contains { screen.is($0) } }
}
