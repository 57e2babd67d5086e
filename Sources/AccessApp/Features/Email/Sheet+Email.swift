import Foundation

extension Sheet {
    /// Soft warning: the email is the account's only sign-in method and there is no password to verify
    /// with (seed 000), so no re-auth.
    static var lastEmailMethod: Sheet {
        Sheet(
            title: "This is your only sign-in method",
            body:
                "Changing your email without a backup means if something goes wrong — a typo, a mailbox you can't open — you could lose access. We recommend adding another method first.",
            actions: [
                // What it recommends comes first, and the sheet opens on it: an email-only account adds a
                // phone (on the hub, under this sub-hub).
                (.init("Add phone number"), [.continueFlow(PhoneFlow.addPhone)]),
                (.init("Change email anyway", isDestructive: true), [.continueFlow(EmailFlow.changeEmail)]),
                (.init("Cancel"), []),
            ])
    }

    static var emailGallery: [GalleryEntry] {
        [
            GalleryEntry("email-password:last-method", "Soft warning before changing an only email") { now in
                var methods = SampleData.emailOnly
                methods.hasPassword = false
                var state = SampleData.state([EmailPasswordScreen()], methods: methods, now: now)
                state.overlay = .sheet(.lastEmailMethod)
                return state
            }
        ]
    }
}
