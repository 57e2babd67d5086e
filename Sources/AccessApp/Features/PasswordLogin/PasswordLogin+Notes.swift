extension PasswordLoginScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Seed 002's Log in and Register on one screen (Ctrl+T switches), with the password masked (Ctrl+R shows it). The address is checked here before any call; registering, the password must pass seed 000's rules, which win over 002's bare 8 characters.",
            "A failed login says \"Invalid email or password\", never which one was wrong, empties the password and keeps the email. No network is never \"invalid\": it says \"No internet connection\". The third failure in a row for an address waits 30 s and each next one twice as long, up to 15 minutes (003's progressive timeout), counted down with the button off.",
            "On purpose unlike seed 002: registering does not sign in. The account exists but cannot log in until the emailed link is opened (002's own \"email not verified: block access\"). The contract's statuses differ from 002's too: 401 for wrong credentials rather than 400, 409 for a taken email rather than 422.",
        ],
        calls: [
            .post(
                "/auth/login", when: "Log in",
                [
                    200: "Signed in: onboarding's step, or Settings.",
                    401:
                        "\"Invalid email or password\"; the password is emptied. With retry_after (or Retry-After) this try started the lockout: counted down at once, as for 429.",
                    403: "email_unverified: \"Please verify your email\", with Resend.",
                    422: "The server's message.",
                    429: "The lockout counted down; the button off until it passes.",
                ],
                noAnswer: "\"No internet connection\"; what was typed stays."),
            .post(
                "/auth/register", when: "Register",
                [
                    201: "\"Check your email to verify your account\".",
                    409:
                        "\"An account with this email already exists\" (or the server's message for a deleted account's address).",
                    422: "The broken password rule's sentence, else the server's message.",
                    429: "The wait counted down; the button off until it passes.",
                ],
                noAnswer: "\"No internet connection\"; what was typed stays."),
        ],
        seeds: [.loginFlow, .registrationFlow, .validationRules, .edgeCases, .verificationLimitations])
}

extension VerifyAccountScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Seed 002's email verification screen, after registering (\"Check your email to verify your account\") or after a login refused because the link was not opened yet (\"Please verify your email\").",
            "The link is opened from the outbox, pasted here, or handed over with `accessdeck open-link`; it verifies the address and the person logs in. Resend never says whether the address has an account waiting. Enter goes back to Log in.",
        ],
        calls: [
            .post(
                "/auth/register/resend", when: "r",
                [
                    202: "\"Verification email sent\" (whether or not anything was sent).",
                    422: "The server's message.",
                    429: "Resend counts down the server's wait.",
                ],
                noAnswer: "\"No internet connection\".")
        ],
        seeds: [.registrationFlow, .emailVerificationHandling, .resendVerificationEmail])
}
