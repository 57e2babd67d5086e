import AccessCore

extension ProfileScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Onboarding step 2 of 4 (the phone and its code were step 1, at sign-in): a username, required, and a photo, optional. \"Step 2 of 4\" under the title is seed 003's clear progress. An Apple or Google sign-up has no phone step (the backend starts every new account at the profile), so it counts three steps and this is step 1 of 3. An email sign-up proved its address with its code, so the backend passes over the recovery email step: it counts two steps, and this is step 2 of 2. \"You're all set\" numbers no step: it says Done.",
            "The name is checked against the username rules as it is typed, and the server is asked 400 ms after typing pauses, on the app's clock. A taken name never says whose. Continue stays off until the name passes the rules.",
            "Where onboarding stands is kept by the backend, not the app: a sign-in, a restart or the QA shortcut comes back to this step until it is done, and each answer replaces the screen with the next step, with nothing to go back to. Esc is the way out instead: Log out, after the usual sheet.",
        ],
        calls: [
            .get(
                "/auth/username-available", when: "400 ms after typing pauses, for a name that passes the rules",
                [
                    200: "\"Available\", or \"That username is taken.\"",
                    401: APICall.sessionRefused,
                    422: "The broken rules, in words, under the field.",
                ],
                noAnswer: "Not known either way: the message, and the server decides on Continue."),
            .put(
                "/me/profile", when: "Continue",
                [
                    200: "The next step: Add a recovery email.",
                    401: APICall.sessionRefused,
                    409: "\"That username is taken.\"",
                    422: "The broken name rules under the name, or the photo's problem under the photo.",
                ],
                noAnswer: "The offline message; what was typed stays."),
        ],
        seeds: [.basicProfileForm, .authenticationProgress])
}

extension RecoveryEmailScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Onboarding step 3: an email and a password that get the account back if the phone is lost, and for recovery only. The why comes first, prominent; \"Skip for now\" (Ctrl+S) is there but quieter.",
            "The password follows seed 000's rules, which win over 003's \"a number and a special character\": the seeds' README settles it. It is typed twice, as every new password, and Ctrl+R shows both fields; its checklist is the same as elsewhere: seed 001's three visible rules, \"not similar to your email\" judged by the server alone. The server's refusals show under the fields, which keep what was typed.",
        ],
        calls: [
            .post(
                "/me/recovery-email", when: "Continue",
                [
                    202:
                        "Step 4, Verify your email: the link went out, Resend in \(RuleText.duration(SendLimits.cooldown, .short)).",
                    401: APICall.sessionRefused,
                    409: "Taken: \"This email is already in use by another account.\"; otherwise the server's message.",
                    422: "A broken password rule under the password; else the message under the email.",
                    429: "A countdown banner for this address; Continue off until it passes.",
                ],
                noAnswer: "The offline message; what was typed stays."),
            .post(
                "/me/onboarding/continue", when: "Skip for now",
                [
                    200: "The next step, with no recovery email: \"You're all set\".",
                    401: APICall.sessionRefused,
                    409: "The server's message.",
                ],
                noAnswer: "The offline message."),
        ],
        seeds: [.recoveryEmailOption, .authenticationProgress])
}

extension VerifyRecoveryEmailScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Onboarding step 4: the link went to the recovery email. Opened from the outbox, pasted here or handed over with `accessdeck open-link`, it verifies the address and onboarding goes on.",
            "Verifying is optional, as seed 003 says: Enter continues without it, and Settings then reminds the person and can send the link again. Resend waits \(RuleText.duration(SendLimits.cooldown, .short)) after a send, or the server's 429 wait.",
        ],
        calls: [
            .post(
                "/auth/register/resend", when: "r, once the countdown allows",
                [
                    202:
                        "Toast \"We sent the link again.\"; Resend waits \(RuleText.duration(SendLimits.cooldown, .short)).",
                    422: "The server's message.",
                    429: "Resend counts down the server's wait.",
                ],
                noAnswer: "The offline message."),
            .post(
                "/me/onboarding/continue",
                when: "Enter (continue unverified), or a backend still on this step after the link",
                [
                    200: "\"You're all set\".",
                    401: APICall.sessionRefused,
                    409: "The server's message.",
                ],
                noAnswer: "The offline message; Enter tries again."),
            .get(
                "/me/profile", when: "after the link was confirmed",
                [200: "The next step, \"You're all set\"."],
                noAnswer: "\"You're all set\" anyway: the address is verified whatever this answer was."),
        ],
        seeds: [.emailVerificationOptional, .authenticationProgress])
}

extension OnboardingDoneScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Seed 003's onboarding completion: the account is ready, a short orientation (where Account access is; whether the recovery email still waits for its link), then Settings.",
            "Finishing is the backend's bookkeeping. When it cannot be told (offline, refused), the person still goes on, and the next start shows this screen once more.",
        ],
        calls: [
            .post(
                "/me/onboarding/continue", when: "Enter",
                [
                    200: "Settings.",
                    401: APICall.sessionRefused,
                    409: "Settings anyway, with the server's message as a toast.",
                ],
                noAnswer: "Settings anyway.")
        ],
        seeds: [.onboardingCompletion, .authenticationProgress])
}
