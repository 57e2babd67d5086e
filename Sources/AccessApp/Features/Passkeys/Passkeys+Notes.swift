import AccessCore

extension PasskeysScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Passkeys, from the hub's row beside Apple and Google: the account's passkeys with their name, the device each was made on, when it was created and last used, and \"\(clonedBadge)\" on one the server flagged as cloned (passkey.cloned: its counter went back, so it no longer signs in). The seeds say nothing about passkeys; the wording is ours, in seed 001's voice (docs/RULES.md, passkey, our wording).",
            "\"Add a passkey\" is the registration ceremony (passkey.registered): the options, then the \"Create a passkey\" sheet, the device's prompt. Enter makes the key pair on this device (kept in passkeys.json beside device.json), and the attestation goes to the server; a refused registration takes the key off the device again. Esc is the user's cancel: \"\(PasskeyWording.cancelledText)\" under the list, and nothing goes to the server.",
            "Enter on a passkey offers Rename and Remove. Removing asks \"Verify it's you\" with any method but a passkey (a passkey's grant does not verify removing one, passkey.removed), then a confirmation sheet. When it is the account's only way in (a flagged passkey no longer counts), the same hard block as disconnecting the last provider shows before Verify it's you, and the server's 409 last_method shows it too (passkey.last_method); when only passkeys are left to verify with, the session suffices and the confirmation follows at once.",
        ],
        calls: [
            .get(
                "/me/passkeys", when: "when the screen opens, r, and after a change",
                [200: "The rows.", 401: APICall.sessionRefused, 403: APICall.limitedAccessRefused],
                noAnswer: "\"\(OnScreenMessage.offline.text)\" under the title."),
            .post(
                "/me/passkeys/registration/options", when: "Enter on Add a passkey",
                [200: "The \"Create a passkey\" sheet.", 401: APICall.sessionRefused]),
            .post(
                "/me/passkeys", when: "Enter on the Create a passkey sheet",
                [
                    201: "\"\(PasskeyWording.addedText)\"; the list and the hub's count load again.",
                    409: "passkey_exists: \"This passkey is already on your account.\"",
                    410: "passkey_challenge_expired: \"Your passkey request expired. Try again.\"",
                    422:
                        "passkey.refused: \"Your passkey couldn't be checked. Try again.\" (the key is off the device again).",
                ]),
            .delete(
                "/me/passkeys/{id}", when: "Remove, on the confirmation after Verify it's you",
                [
                    204: "A toast names it; the list and the hub's count load again.",
                    403: "The re-auth window closed: Verify it's you again.",
                    404: "passkey.not_found: it was removed already; the list loads again.",
                    409: "last_method: the hard block, \"Can't remove this passkey\".",
                ]),
        ],
        seeds: [.accountAccessHub, .reauthPicker, .disconnectBlock])
}

extension RenamePasskeyScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Rename a passkey (passkey.renamed): 1 to \(PasskeyRules.maxNameLength) characters (`PasskeyRules.maxNameLength`), trimmed; the field stops at the limit, an empty name is refused here, and the server's 422 shows under the field. No Verify it's you: a name changes no way in."
        ],
        calls: [
            .patch(
                "/me/passkeys/{id}", when: "Enter",
                [
                    200: "\"\(PasskeyWording.renamedText)\", back on the list.",
                    404: "passkey.not_found: \"This passkey was removed from your account. Sign in another way.\"",
                    422: "invalid_field: the server's message under the field.",
                ])
        ],
        seeds: [.accountAccessHub])
}
