import Foundation
import TerminalKit

extension PasswordLoginScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("password-login:default", "Log in with an email and a password") {
                AppState(root: PasswordLoginScreen(), now: $0)
            },
            GalleryEntry("password-login:register", "Register: the same form, the rules under it") {
                AppState(
                    root: PasswordLoginScreen(
                        mode: .register, email: "fresh@mail.com", password: "violet", focus: .password),
                    now: $0)
            },
            GalleryEntry("password-login:shown", "The password shown (Ctrl+R)") {
                AppState(
                    root: PasswordLoginScreen(
                        email: "jdoe@mail.com", password: "correct-horse", focus: .password, showsPassword: true),
                    now: $0)
            },
            GalleryEntry("password-login:invalid-email", "Not an address: said before any call") {
                AppState(
                    root: PasswordLoginScreen(
                        email: "jdoe@mail", password: "whatever", error: PasswordLoginScreen.invalidEmailText), now: $0)
            },
            GalleryEntry("password-login:wrong", "A failed login: the email kept, the password cleared") {
                AppState(
                    root: PasswordLoginScreen(
                        email: "jdoe@mail.com", focus: .password, error: PasswordLoginScreen.invalidCredentialsText),
                    now: $0)
            },
            GalleryEntry("password-login:exists", "Registering an address that has an account") {
                AppState(
                    root: PasswordLoginScreen(
                        mode: .register, email: "jdoe@mail.com", password: "violet-harbor-77", focus: .cta,
                        error: PasswordLoginScreen.emailExistsText), now: $0)
            },
            GalleryEntry("password-login:locked", "Too many failures: the wait counts down") { now in
                AppState(
                    root: PasswordLoginScreen(
                        email: "jdoe@mail.com", focus: .password, lockedUntil: now.addingTimeInterval(28),
                        lockKind: .loginLockout), now: now)
            },
            GalleryEntry("password-login:offline", "No connection: never a wrong password") {
                AppState(
                    root: PasswordLoginScreen(
                        email: "jdoe@mail.com", password: "correct-horse-42", focus: .cta,
                        error: PasswordLoginScreen.offlineText), now: $0)
            },
            GalleryEntry("password-login:working", "Logging in") {
                AppState(
                    root: PasswordLoginScreen(
                        email: "jdoe@mail.com", password: "correct-horse-42", focus: .cta, isWorking: true), now: $0)
            },
            GalleryEntry("password-login:verified", "Back from the emailed link: verified, log in") {
                AppState(
                    root: PasswordLoginScreen(
                        email: "fresh@mail.com", focus: .password,
                        notice: PasswordLoginScreen.verifiedText("fresh@mail.com")), now: $0)
            },
        ]
    }
}
