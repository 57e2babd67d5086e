import AccessCore

extension EnterPhoneScreen {
    public static let specNotes = SpecNotes(
        why: [
            "One screen for every phone number the app asks for: a new number (with \"Current: …\" under the title), adding one, verifying one again after a recovery by email, and Continue with phone at sign-in. Only the title and the line under it differ.",
            "Send code stays off until the number fits the country's length rule: a format check only, no phone library. Letters are refused with a word; a pasted number is cleaned and a leading +CC picks the country. The server checks again, and its answers show under the field.",
            "Who owns a taken number is never said. A 429 puts a countdown banner on this screen for that number only: another number can be sent at once.",
            "Continue with phone (seed 004) is sign-in and sign-up in one: an unknown number creates the account after its code, so no \"taken\" exists there. For a new account it is step 1 of onboarding's 4 (seed 003's progress steps), said under the title; a sign-up's right code says \"Phone verified. Next, your profile.\" as the profile opens (seed 003's verification success).",
            "Continue with phone also takes an optional display name (seed 004), after the number in Tab's order; Enter on the number still sends. It is checked as typed with the backend's rule (1 to \(DisplayNameRules.maximumLength) characters once trimmed) and goes with the code; a server's 422 for it is said under its field.",
        ],
        calls: [
            .post(
                "/auth/phone/request-otp", when: "Send code (new, added or re-verified number)",
                [
                    202: "Enter the code for that number.",
                    401: APICall.sessionRefused,
                    403:
                        "reauth_required (the \(RuleText.duration(ReauthRules.window, .compound)) window closed): \"Verify it's you\" again.",
                    409: "\"This number is already in use by another account.\"",
                    422:
                        "phone_invalid: \"Enter a valid phone number.\"; phone_unchanged: \"This is already your number. Enter a new one.\"; others: the server's message.",
                    429:
                        "A countdown banner for this number, Send code off until it passes; no wait given: the server's message.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\" under the field."),
            .post(
                "/auth/sign-in/code", when: "Send code on Continue with phone",
                [
                    202: "Enter the code (no session yet: the code signs in).",
                    409:
                        "The server's message (the number of an account deleted less than \(RuleText.duration(DeletionRules.holdDuration)) ago).",
                    422: "\"Enter a valid phone number.\"",
                    429: "A countdown banner for this number; no wait given: the server's message.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\" under the field."),
        ],
        seeds: [.enterPhoneNumber, .countryPicker, .phoneNumberEntry, .phoneReverification, .continueWithPhone])
}

extension CountryPickerScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Country or region, full screen because 200-odd countries with a search need the room. The list is bundled with the app: no backend call.",
            "Popular puts the device's region first (from --region, else the locale), then Georgia, the United States and the United Kingdom. Typing searches names, ISO codes and dial codes. Enter hands the country back to the number screen, which checks the number again against that country's length; Esc leaves the country unchanged.",
        ],
        seeds: [.countryPicker])
}

extension EnterCodeScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Six boxes that send the code once they are full, for every code of the app: a new or added number, a number verified again after a recovery, \"Text me a code\" in \"Verify it's you\", and the sign-in codes by text or email.",
            "A wrong code keeps its digits for editing and says how many tries are left. The \(RuleText.ordinal(CodeRules.maxWrongAttempts)) wrong code, or \(RuleText.duration(CodeRules.lifetime, .spelled)), kills it: the boxes go off and Resend is the only way on. Resend waits \(RuleText.duration(SendLimits.cooldown, .short)) and is allowed \(SendLimits.maxResendsPerWindow) times per \(RuleText.duration(SendLimits.resendWindow)); a 429 counts down in a banner. A second countdown shows the code's own lifetime, and h opens \"Didn't receive a code?\".",
            "Esc cancels the request on the server before going back to the number, which stays as typed. A sign-in code has nothing to cancel: it dies with the next one or its time.",
            "Rules settled between the seeds: 000's \(RuleText.count(CodeRules.maxWrongAttempts)) wrong tries kill a code (not 003's three), with 003's \(RuleText.duration(SendLimits.cooldown, .short)) between sends and its \(SendLimits.maxCodesPerDay) codes per phone per \(RuleText.duration(SendLimits.dailyWindow)) on top of 000's \(SendLimits.maxResendsPerWindow) resends per \(RuleText.duration(SendLimits.resendWindow)).",
        ],
        calls: [
            .post(
                "/auth/phone/verify-otp", when: "the sixth digit, Enter, or a code chosen in the outbox",
                [
                    200:
                        "New number: saved, back to the hub with \"Phone updated\". Re-auth: the window opens and the flow goes on. Re-verification: full access back (the profile is fetched again), Settings with a toast.",
                    401:
                        "code_incorrect: \"\(OnScreenMessage.codeIncorrect.text)\" with the tries left; none left: the code is dead.",
                    403: "reauth_required: \"Verify it's you\" again, then the same code is sent again.",
                    409: "\"This number is already in use by another account.\"",
                    410: "\"\(OnScreenMessage.codeExpired.text)\": the boxes off, Resend the only way on.",
                    422: "The server's message.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\" under the boxes."),
            .post(
                "/auth/phone/resend-otp", when: "r or Enter once the resend countdown is over",
                [
                    202: "A new code: empty boxes, fresh countdowns.",
                    401: APICall.sessionRefused,
                    404: "The server's message.",
                    410: "The server's message.",
                    429: "A countdown banner; Resend stays off until it passes.",
                ],
                noAnswer: "The offline message under the boxes."),
            .post(
                "/auth/phone/cancel-otp", when: "Esc",
                [200: "Nothing to show: the screen is already gone.", 410: "Nothing: the code was dead anyway."]),
            .post(
                "/auth/sign-in/code/verify", when: "a sign-in code is complete",
                [
                    200: "Signed in: onboarding's next step for a new account, else Settings.",
                    401: "code_incorrect, as for a phone code.",
                    404: "The server's message.",
                    409:
                        "The server's message (an account deleted less than \(RuleText.duration(DeletionRules.holdDuration)) ago).",
                    410: "\"\(OnScreenMessage.codeExpired.text)\"",
                    422: "For the display name: back to its field with the server's words; else the server's message.",
                ],
                noAnswer: "The offline message under the boxes."),
            .post(
                "/auth/sign-in/code/resend", when: "r on a sign-in code",
                [
                    202: "A new code: empty boxes, fresh countdowns.",
                    404: "The server's message.",
                    429: "A countdown banner; Resend stays off until it passes.",
                ]),
            .get(
                "/me/profile", when: "after a re-verified phone's code",
                [
                    200:
                        "Settings with full access and \"Your account is fully restored. Other devices were signed out.\""
                ],
                noAnswer: "The same, with the profile as it was marked full: the right code restored access anyway."),
        ],
        seeds: [.enterOTPCode, .smsVerification, .verificationLimitations, .phoneReverification, .otpGate])
}
