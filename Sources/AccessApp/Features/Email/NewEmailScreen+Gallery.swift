import AccessAPI
import Foundation
import TerminalKit

extension NewEmailScreen {
    static let sampleCurrent = "jdoe@mail.com"
    static let sampleNew = "new.email@gmail.com"

    static func sampleChange(
        _ email: String, _ availability: Availability, focus: Focus = .email, now: Date
    ) -> AppState {
        SampleData.state(
            [
                EmailPasswordScreen(),
                NewEmailScreen(
                    mode: .change(current: sampleCurrent), email: email, focus: focus, availability: availability),
            ], now: now)
    }

    public static var defaultGalleryState: String { "empty" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("new-email:empty", "Change email: nothing typed yet") {
                sampleChange("", .idle, now: $0)
            },
            GalleryEntry("new-email:typing", "Typing: nothing judged until the pause") {
                sampleChange("new.email@gm", .typing(since: $0), now: $0)
            },
            GalleryEntry("new-email:checking", "Typing paused: availability is being checked") {
                sampleChange(sampleNew, .checking(sampleNew), now: $0)
            },
            GalleryEntry("new-email:available", "The address is free: Send link is on") {
                sampleChange(sampleNew, .available(sampleNew), focus: .cta, now: $0)
            },
            GalleryEntry("new-email:taken", "Another account holds the address (never says whose)") {
                sampleChange("taken@mail.com", .taken("taken@mail.com"), now: $0)
            },
            GalleryEntry("new-email:invalid", "Not an email address") {
                sampleChange("new.email@", .invalid, now: $0)
            },
            GalleryEntry("new-email:limited", "Too many emails to this address (429): Send link off") {
                SampleData.state(
                    [
                        EmailPasswordScreen(),
                        NewEmailScreen(
                            mode: .change(current: sampleCurrent), email: sampleNew, focus: .cta,
                            availability: .available(sampleNew),
                            limit: RateLimit(
                                target: sampleNew, until: $0.addingTimeInterval(5 * 3600), kind: .dailyCap)),
                    ], now: $0)
            },
            GalleryEntry("new-email:add", "Add email & password: both fields, the rules unchecked") {
                SampleData.state([NewEmailScreen(mode: .add)], methods: SampleData.phoneOnly, now: $0)
            },
            GalleryEntry("new-email:add-rules", "Add: the password left, two rules broken") {
                SampleData.state(
                    [
                        NewEmailScreen(
                            mode: .add, email: sampleNew, password: "12345678", focus: .cta,
                            availability: .available(sampleNew), passwordChecked: true)
                    ], methods: SampleData.phoneOnly, now: $0)
            },
            GalleryEntry("new-email:add-ready", "Add: address free, password passes") {
                SampleData.state(
                    [
                        NewEmailScreen(
                            mode: .add, email: sampleNew, password: "correct-horse-42", focus: .cta,
                            availability: .available(sampleNew), passwordChecked: true)
                    ], methods: SampleData.phoneOnly, now: $0)
            },
        ]
    }
}
