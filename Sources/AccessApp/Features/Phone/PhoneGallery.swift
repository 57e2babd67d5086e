import AccessAPI
import Foundation
import TerminalKit

/// Named states of the phone flow: entering the number, picking a country, entering the code.
enum PhoneFlowGallery {
    static let current = SampleData.everyMethod.phone
    static let newPhone = "+995511200300"

    static func code(
        _ now: Date, sentAgo: TimeInterval = 3, digits: String = "", problem: EnterCodeScreen.Problem? = nil,
        isDead: Bool = false
    ) -> EnterCodeScreen {
        EnterCodeScreen(
            flow: .changePhone, phone: newPhone, requestId: "otp_sample", expiresAt: now - sentAgo + 300,
            resendAfter: now - sentAgo + 30, digits: digits, problem: problem, isDead: isDead)
    }

    static var entries: [GalleryEntry] { phoneEntries + pickerEntries + codeEntries }

    static let phoneEntries: [GalleryEntry] = [
        GalleryEntry("enter-phone:change", "Change: the current number under the title, CTA off") {
            SampleData.state([EnterPhoneScreen(flow: .changePhone, current: current)], now: $0)
        },
        GalleryEntry("enter-phone:add", "Add: the same screen with the add copy") {
            SampleData.state(
                [EnterPhoneScreen(flow: .addPhone, current: nil)], methods: SampleData.noPhone, now: $0)
        },
        GalleryEntry("enter-phone:valid", "A valid Georgian number: Send code is on") {
            SampleData.state([EnterPhoneScreen(flow: .changePhone, current: current, number: "511 200 300")], now: $0)
        },
        GalleryEntry("enter-phone:taken", "The number belongs to another account") {
            SampleData.state(
                [
                    EnterPhoneScreen(
                        flow: .changePhone, current: current, number: "511 200 300",
                        error: EnterPhoneScreen.takenText)
                ], now: $0)
        },
        GalleryEntry("enter-phone:invalid", "The server rejected the number") {
            SampleData.state(
                [
                    EnterPhoneScreen(
                        flow: .changePhone, current: current, number: "511 200 30",
                        error: EnterPhoneScreen.invalidText)
                ], now: $0)
        },
        GalleryEntry("enter-phone:rate-limited", "Too many code requests: the banner counts down") { now in
            var state = SampleData.state(
                [EnterPhoneScreen(flow: .changePhone, current: current, number: "511 200 300")], now: now)
            state.banner = .rateLimited(until: now + 27)
            return state
        },
        GalleryEntry("enter-phone:sending", "Waiting for the code request") {
            SampleData.state(
                [EnterPhoneScreen(flow: .changePhone, current: current, number: "511 200 300", isWorking: true)],
                now: $0)
        },
    ]

    static func picker(_ query: String) -> [AnyScreen] {
        [
            AnyScreen(EnterPhoneScreen(flow: .changePhone, current: current)),
            AnyScreen(CountryPickerScreen(localeRegion: "GE", query: query)),
        ]
    }

    static let pickerEntries: [GalleryEntry] = [
        GalleryEntry("country-picker:default", "Popular first, then every country") { now in
            var state = SampleData.state([], now: now)
            state.stack += picker("")
            return state
        },
        GalleryEntry("country-picker:search-ge", "Searching \"ge\": names and ISO codes") { now in
            var state = SampleData.state([], now: now)
            state.stack += picker("ge")
            return state
        },
        GalleryEntry("country-picker:search-dial", "Searching \"+99\": dial codes") { now in
            var state = SampleData.state([], now: now)
            state.stack += picker("+99")
            return state
        },
        GalleryEntry("country-picker:empty", "Nothing matches") { now in
            var state = SampleData.state([], now: now)
            state.stack += picker("zzz")
            return state
        },
    ]

    static let codeEntries: [GalleryEntry] = [
        GalleryEntry("enter-code:empty", "Just sent: empty boxes, resend counting down") {
            SampleData.state([code($0)], now: $0)
        },
        GalleryEntry("enter-code:partial", "Three digits typed") {
            SampleData.state([code($0, digits: "482")], now: $0)
        },
        GalleryEntry("enter-code:incorrect", "Wrong code: red boxes, digits kept") {
            SampleData.state([code($0, digits: "482111", problem: .incorrect(attemptsRemaining: 4))], now: $0)
        },
        GalleryEntry("enter-code:expired", "Expired: Resend is the only way on") {
            SampleData.state([code($0, sentAgo: 301, digits: "482915")], now: $0)
        },
        GalleryEntry("enter-code:resend-countdown", "Resend in 0:27") {
            SampleData.state([code($0, sentAgo: 3)], now: $0)
        },
        GalleryEntry("enter-code:resend-ready", "The cooldown is over: Resend code") {
            SampleData.state([code($0, sentAgo: 45)], now: $0)
        },
        GalleryEntry("enter-code:rate-limited", "Too many resends: the banner counts down") { now in
            var screen = code(now, sentAgo: 45)
            screen.resendAfter = now + 27
            var state = SampleData.state([screen], now: now)
            state.banner = .rateLimited(until: now + 27)
            return state
        },
        GalleryEntry("hub:phone-updated", "The new number is saved") { now in
            var methods = SampleData.everyMethod
            methods.phone = newPhone
            var state = SampleData.state([], methods: methods, now: now)
            state.overlay = .sheet(.phoneUpdated("+995 511 200 300"))
            return state
        },
    ]
}
