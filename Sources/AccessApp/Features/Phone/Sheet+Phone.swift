import AccessAPI
import TerminalKit

extension Sheet {
    /// Soft warning: changing the only sign-in method (seed 000), no re-auth.
    public static func lastMethod(_ flow: PhoneFlow) -> Sheet {
        Sheet(
            title: "This is your only sign-in method",
            body:
                "Changing your phone number without a backup means if something goes wrong — wrong code, lost SIM — you could lose access. We recommend adding another method first.",
            actions: [
                // What it recommends comes first, and the sheet opens on it: a phone-only account's other
                // method is an email and password (seed 000: adding needs no verification).
                (.init("Add email & password"), [.push(NewEmailScreen(mode: .add))]),
                (.init("Change number anyway", isDestructive: true), [.continueFlow(flow)]),
                (.init("Cancel"), []),
            ])
    }

    public static func phoneUpdated(_ phone: String) -> Sheet {
        Sheet(title: "Phone updated", body: "Your new number is \(phone).", actions: [(.init("Done"), [])])
    }

    /// An addition says added: the account had no number before.
    public static func phoneAdded(_ phone: String) -> Sheet {
        Sheet(title: "Phone added", body: "Your number is \(phone).", actions: [(.init("Done"), [])])
    }

    static var phoneGallery: [GalleryEntry] {
        [
            GalleryEntry("hub:last-method", "Soft warning before changing the only method") { now in
                var state = SampleData.state([], methods: SampleData.phoneOnly, now: now)
                state.overlay = .sheet(.lastMethod(.changePhone))
                return state
            },
            GalleryEntry("hub:phone-updated", "The new number is saved") { now in
                var methods = SampleData.everyMethod
                methods.phone = PhoneGallery.newPhone
                var state = SampleData.state([], methods: methods, now: now)
                state.overlay = .sheet(.phoneUpdated("+995 511 200 300"))
                return state
            },
            GalleryEntry("hub:phone-added", "A first number is saved") { now in
                var methods = SampleData.noPhone
                methods.phone = PhoneGallery.newPhone
                var state = SampleData.state([], methods: methods, now: now)
                state.overlay = .sheet(.phoneAdded("+995 511 200 300"))
                return state
            },
        ]
    }
}
