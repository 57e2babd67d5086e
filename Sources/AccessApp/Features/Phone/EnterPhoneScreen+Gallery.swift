import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension EnterPhoneScreen {
    public static var defaultGalleryState: String { "sign-in" }

    public static var gallery: [GalleryEntry] {
        accountGallery + signInGallery
    }

    static var accountGallery: [GalleryEntry] {
        [
            GalleryEntry(
                "enter-phone:change", "Change: the current number under the title, CTA off",
                road: Roads.verifiedForNewPhone
            ) {
                SampleData.state([EnterPhoneScreen(flow: .changePhone, current: PhoneGallery.current)], now: $0)
            },
            GalleryEntry("enter-phone:add", "Add: the same screen with the add copy") {
                SampleData.state(
                    [EnterPhoneScreen(flow: .addPhone, current: nil)], methods: SampleData.noPhone, now: $0)
            },
            GalleryEntry("enter-phone:valid", "A valid Georgian number: Send code is on") {
                SampleData.state(
                    [EnterPhoneScreen(flow: .changePhone, current: PhoneGallery.current, number: "511 200 300")],
                    now: $0)
            },
            GalleryEntry(
                "enter-phone:taken", "The number belongs to another account",
                road: Roads.verifiedForNewPhone.then(["POST /auth/phone/request-otp 409"]) { api, verified in
                    try await SendCodeToATakenNumber(verified: verified).perform(api)
                }
            ) {
                SampleData.state(
                    [
                        EnterPhoneScreen(
                            flow: .changePhone, current: PhoneGallery.current, number: "511 200 300",
                            error: EnterPhoneScreen.takenText)
                    ], now: $0)
            },
            GalleryEntry(
                "enter-phone:recently-deleted", "The number of an account deleted days ago: the message wraps"
            ) {
                SampleData.state(
                    [
                        EnterPhoneScreen(
                            flow: .addPhone, current: nil, number: "511 100 000",
                            error:
                                "This number belonged to an account that was deleted less than \(RuleText.duration(DeletionRules.holdDuration)) ago. Try again from Fri, Jan 22, 08:00 UTC or use another number."
                        )
                    ], methods: SampleData.noPhone, now: $0)
            },
            GalleryEntry("enter-phone:invalid", "The server rejected the number") {
                SampleData.state(
                    [
                        EnterPhoneScreen(
                            flow: .changePhone, current: PhoneGallery.current, number: "511 200 30",
                            error: EnterPhoneScreen.invalidText)
                    ], now: $0)
            },
            GalleryEntry("enter-phone:rate-limited", "Too many code requests: the banner counts down") { now in
                let limit = RateLimit(target: PhoneGallery.newPhone, until: now + 27)
                return SampleData.state(
                    [
                        EnterPhoneScreen(
                            flow: .changePhone, current: PhoneGallery.current, number: "511 200 300", limit: limit)
                    ], now: now)
            },
            GalleryEntry("enter-phone:sending", "Waiting for the code request") {
                SampleData.state(
                    [
                        EnterPhoneScreen(
                            flow: .changePhone, current: PhoneGallery.current, number: "511 200 300", isWorking: true)
                    ],
                    now: $0)
            },
        ]
    }

    /// Continue with phone or email (seed 004), served by the same screen.
    static var signInGallery: [GalleryEntry] {
        [
            GalleryEntry("enter-phone:sign-in", "Continue with phone") {
                AppState(root: EnterPhoneScreen.signIn(region: "GE", number: "511 123 456"), now: $0)
            },
            GalleryEntry("enter-phone:sign-in-named", "Continue with phone, a display name typed") { now in
                var screen = EnterPhoneScreen.signIn(region: "GE", number: "511 123 456")
                screen.displayName = DisplayNameInput("Jane Doe")
                screen.focus = .displayName
                return AppState(root: screen, now: now)
            },
            GalleryEntry(
                "enter-phone:sign-in-name-too-long",
                "A display name past \(DisplayNameRules.maximumLength) characters: Send code is off"
            ) {
                now in
                var screen = EnterPhoneScreen.signIn(region: "GE", number: "511 123 456")
                screen.displayName = DisplayNameInput("Jane Alexandra Montgomery-Fitzgerald of Tbilisi, QA")
                screen.focus = .displayName
                return AppState(root: screen, now: now)
            },
            GalleryEntry("enter-phone:reverify", "Limited access: verify the old number or a new one") {
                SampleData.limitedState(
                    [EnterPhoneScreen(flow: .reverifyPhone, current: PhoneGallery.current, number: "511 200 300")],
                    now: $0)
            },
        ]
    }
}
