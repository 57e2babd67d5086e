extension LoggedOutScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Logging out, after \"Are you sure you want to logout?\" on Settings: a spinner while the backend ends this device's session, the sign-in and every rotation of it. Other devices stay signed in.",
            "Best effort, as seed 002 asks: whatever the answer, offline included, the session file and the cached data are forgotten here and the sign-in screen says \"You're logged out. Your other devices stay signed in.\"",
        ],
        calls: [
            .post(
                "/auth/logout", when: "as the screen opens",
                [
                    204: "Signed out here; the sign-in screen.",
                    401: "The same: the session was over anyway.",
                ],
                noAnswer: "The same: signed out here all the same.")
        ],
        seeds: [.logoutFlow, .logoutEndpoint])
}
