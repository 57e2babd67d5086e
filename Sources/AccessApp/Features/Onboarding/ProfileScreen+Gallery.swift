import AccessAPI
import Foundation
import TerminalKit

extension ProfileScreen {
    public static var defaultGalleryState: String { "empty" }

    public static var gallery: [GalleryEntry] {
        func entry(
            _ name: String, _ title: String, _ screen: @escaping @Sendable (Date) -> ProfileScreen
        )
            -> GalleryEntry
        {
            GalleryEntry("onboarding-profile:\(name)", title) { now in
                SampleData.onboarding(screen(now), profile: SampleData.profile(.profile, username: nil), now: now)
            }
        }
        return [
            entry("empty", "Step 2: the profile, nothing typed") { _ in ProfileScreen() },
            entry("typing", "A name that breaks the rules: the checklist says which") { _ in
                ProfileScreen(username: "9j")
            },
            entry("checking", "The name passes; asking whether it is free") { _ in
                ProfileScreen(username: "jdoe", availability: .checking("jdoe"))
            },
            entry("available", "The name is free: Continue is on") { _ in
                ProfileScreen(username: "jdoe", availability: .available("jdoe"))
            },
            entry("taken", "The name is taken") { _ in
                ProfileScreen(username: "jdoe", availability: .taken("jdoe"))
            },
            entry("invalid", "The server refused the name's form") { _ in
                var screen = ProfileScreen(username: "jdoe", availability: .invalid("jdoe"))
                screen.username.error = UsernameRulesSample.serverSentence
                return screen
            },
            entry("photo", "A photo path typed, focus on Continue") { _ in
                ProfileScreen(
                    username: "jdoe", photo: "~/Pictures/me.jpg", focus: .cta, availability: .available("jdoe"))
            },
            entry("saving", "Continue pressed: saving") { _ in
                ProfileScreen(username: "jdoe", focus: .cta, availability: .available("jdoe"), isWorking: true)
            },
            entry("offline", "Saving found no connection: what was typed is kept") { _ in
                ProfileScreen(
                    username: "jdoe", photo: "~/Pictures/me.jpg", focus: .cta, availability: .available("jdoe"),
                    error: APIError.offline(reason: "refused").message)
            },
        ]
    }
}

/// A refusal for a rule this app's copy of the rules does not know: the server's message shows.
enum UsernameRulesSample {
    static let serverSentence = "That username is reserved."
}
