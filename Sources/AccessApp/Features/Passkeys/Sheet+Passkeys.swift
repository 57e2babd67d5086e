import AccessAPI
import AccessCore
import TerminalKit

extension Sheet {
    /// "Use your passkey", as a phone's prompt: the accounts this device holds a passkey for (a choice when
    /// several), Enter approving with user verification; Esc is the user's cancel (`cancel`, which the screen
    /// below words, and nothing is sent). When this device holds none for the relying party, it says so and only
    /// Esc closes it.
    static func usePasskey(
        _ prompt: PasskeyPrompt, _ ceremony: PasskeyCeremony, approve: (PasskeyAccount) -> [Command],
        cancel: [Command]
    ) -> Sheet {
        let site = prompt.options.rpId
        guard !prompt.accounts.isEmpty else {
            let another = ceremony == .reauth ? "choose another way to verify" : "sign in another way"
            return Sheet(
                title: "No passkey on this device",
                body: "There's no passkey for \(site) on this device. Use the device that has it, or \(another).",
                actions: [], closing: cancel)
        }
        let choose = prompt.accounts.count > 1 ? "Choose an account. " : ""
        return Sheet(
            title: "Use your passkey",
            body: "\(choose)Continue to \(site) with your passkey. Enter confirms it's you.",
            actions: prompt.accounts.map { (.init($0.userName), approve($0)) }, closing: cancel,
            confirmWord: "Approve", closeWord: "Cancel")
    }

    /// "Add a passkey"'s prompt: this device makes a passkey for the account, Enter approving with user
    /// verification; Esc is the user's cancel.
    static func createPasskey(_ options: PasskeyCreationOptions, approve: [Command], cancel: [Command]) -> Sheet {
        Sheet(
            title: "Create a passkey",
            body:
                "Save a passkey for \(options.userName) on this device? You'll sign in to \(options.rpId) with it. Enter confirms it's you.",
            actions: [(.init("Create passkey"), approve)], closing: cancel, confirmWord: "Approve",
            closeWord: "Cancel")
    }

    /// What Enter on a passkey in the list offers.
    static func passkeyActions(_ passkey: Passkey, rename: [Command], remove: [Command]) -> Sheet {
        Sheet(
            title: passkey.name, body: "Rename this passkey, or remove it from your account.",
            actions: [
                (.init("Rename"), rename), (.init("Remove", isDestructive: true), remove), (.init("Cancel"), []),
            ])
    }

    /// The confirmation after Verify it's you.
    static func confirmRemovePasskey(_ name: String, then: [Command]) -> Sheet {
        Sheet(
            title: "Remove \(name)?",
            body: "You'll no longer be able to sign in with this passkey. You can add a passkey again later.",
            actions: [(.init("Remove", isDestructive: true), then), (.init("Cancel"), [])])
    }

    /// 409 last_method, worded as the disconnect's hard block (seed 001).
    static var cantRemovePasskey: Sheet {
        Sheet(
            title: "Can't remove this passkey",
            body:
                "This is your only sign-in method. Add a phone number, email, or another provider first — then you can remove this passkey.",
            actions: [(.init("Got it"), [])])
    }
}

extension Sheet {
    /// The "Use your passkey" sheet's states on sign-in and on Verify it's you, and each refusal as its screen
    /// words it.
    static var passkeyGallery: [GalleryEntry] {
        [
            GalleryEntry("sign-in:passkey", "Continue with passkey: the sheet, one account on this device") {
                PasskeysGallery.signInSheet(PasskeysGallery.prompt(now: $0, accounts: ["jdoe@mail.com"]), now: $0)
            },
            GalleryEntry("sign-in:passkey-choice", "Two accounts on this device: ↑↓ chooses, Enter approves") {
                PasskeysGallery.signInSheet(
                    PasskeysGallery.prompt(now: $0, accounts: ["jdoe@mail.com", "coach@mail.com"]), now: $0)
            },
            GalleryEntry("sign-in:passkey-elsewhere", "No passkey on this device (it is on another phone): only Esc") {
                PasskeysGallery.signInSheet(PasskeysGallery.prompt(now: $0, accounts: []), now: $0)
            },
            GalleryEntry("sign-in:passkey-cancelled", "Esc on the sheet: the user's cancel, nothing sent") {
                PasskeysGallery.signInError(PasskeyWording.cancelledText, now: $0)
            },
            GalleryEntry("sign-in:passkey-expired", "passkey.challenge_expired: 410, expired or replayed") {
                PasskeysGallery.signInError(PasskeyWording.refusal(.codeExpired(message: ""), .signIn), now: $0)
            },
            GalleryEntry("sign-in:passkey-removed", "passkey.not_found: removed on the server, still on the device") {
                PasskeysGallery.signInError(
                    PasskeyWording.refusal(PasskeysGallery.refusal("passkey_not_found", 404), .signIn), now: $0)
            },
            GalleryEntry("sign-in:passkey-cloned", "passkey.cloned: the counter went back") {
                PasskeysGallery.signInError(
                    PasskeyWording.refusal(PasskeysGallery.refusal("passkey_counter_went_back", 403), .signIn), now: $0)
            },
            GalleryEntry("sign-in:passkey-wrong-origin", "passkey.refused: the answer's origin is not the site's") {
                PasskeysGallery.signInError(
                    PasskeyWording.refusal(PasskeysGallery.refusal("passkey_wrong_origin", 422), .signIn), now: $0)
            },
            GalleryEntry("sign-in:passkey-refused", "passkey.refused: a check of the answer failed (signature…)") {
                PasskeysGallery.signInError(
                    PasskeyWording.refusal(PasskeysGallery.refusal("passkey_bad_signature", 422), .signIn), now: $0)
            },
            GalleryEntry("reauth-picker:passkey", "Verify it's you: Passkey, offered when the account has one") {
                SampleData.state(
                    [PasskeysGallery.picker(now: $0)], methods: PasskeysGallery.methodsWithPasskey, now: $0)
            },
            GalleryEntry("reauth-picker:passkey-sheet", "Passkey chosen: the Use your passkey sheet") { now in
                var state = SampleData.state(
                    [PasskeysGallery.picker(now: now, isWorking: true)], methods: PasskeysGallery.methodsWithPasskey,
                    now: now)
                state.overlay = .sheet(
                    ReauthPickerScreen.passkeySheet(PasskeysGallery.prompt(now: now, accounts: ["jdoe@mail.com"])))
                return state
            },
            GalleryEntry("reauth-picker:passkey-elsewhere", "No passkey of the account on this device") { now in
                var state = SampleData.state(
                    [PasskeysGallery.picker(now: now)], methods: PasskeysGallery.methodsWithPasskey, now: now)
                state.overlay = .sheet(ReauthPickerScreen.passkeySheet(PasskeysGallery.prompt(now: now, accounts: [])))
                return state
            },
            GalleryEntry("reauth-picker:passkey-cancelled", "Esc on the sheet: the picker says so") {
                SampleData.state(
                    [PasskeysGallery.picker(now: $0, error: PasskeyWording.cancelledText)],
                    methods: PasskeysGallery.methodsWithPasskey, now: $0)
            },
            GalleryEntry("reauth-picker:passkey-cloned", "passkey.cloned on Verify it's you: choose another way") {
                SampleData.state(
                    [
                        PasskeysGallery.picker(
                            now: $0,
                            error: PasskeyWording.refusal(
                                PasskeysGallery.refusal("passkey_counter_went_back", 403), .reauth))
                    ],
                    methods: PasskeysGallery.methodsWithPasskey, now: $0)
            },
        ]
    }
}
