import AccessAPI
import Foundation
import TerminalKit

extension DeleteBlockersScreen {
    public static var defaultGalleryState: String { "sessions" }

    public static var gallery: [GalleryEntry] {
        func blocked(
            _ blockers: @escaping @Sendable (Date) -> [DeleteBlocker], firstSection: Int = 0
        )
            -> @Sendable (Date) -> AppState
        {
            { now in
                SampleData.state(
                    [DeleteAccountScreen(), DeleteBlockersScreen(blockers: blockers(now), firstSection: firstSection)],
                    now: now)
            }
        }
        return [
            GalleryEntry(
                "delete-blockers:sessions", "Coach with upcoming sessions",
                blocked { [SampleData.upcomingSessions(at: $0)] }),
            GalleryEntry(
                "delete-blockers:payout", "Coach with a pending payout, part of it on hold",
                blocked { [SampleData.pendingPayout(at: $0)] }),
            GalleryEntry(
                "delete-blockers:bookings", "Athlete with upcoming bookings",
                blocked { [SampleData.upcomingBookings(at: $0)] }),
            GalleryEntry(
                "delete-blockers:coach-both", "Coach with sessions and a payout: sessions first",
                blocked { [SampleData.upcomingSessions(at: $0), SampleData.pendingPayout(at: $0)] }),
            GalleryEntry(
                "delete-blockers:all", "Every blocker at once: more below",
                blocked {
                    [
                        SampleData.upcomingSessions(at: $0), SampleData.upcomingBookings(at: $0),
                        SampleData.pendingPayout(at: $0),
                    ]
                }),
            GalleryEntry(
                "delete-blockers:all-scrolled", "Every blocker, scrolled down a section",
                blocked(
                    {
                        [
                            SampleData.upcomingSessions(at: $0), SampleData.upcomingBookings(at: $0),
                            SampleData.pendingPayout(at: $0),
                        ]
                    }, firstSection: 1)),
            GalleryEntry(
                "delete-blockers:unknown-kind", "A blocker of a kind the app does not know, in the server's words",
                blocked { [SampleData.upcomingBookings(at: $0), SampleData.openDispute()] }),
            GalleryEntry(
                "delete-blockers:unknown-bare", "A blocker of a kind the app does not know, with no words of its own",
                blocked { _ in [SampleData.bareUnknownBlocker()] }),
            GalleryEntry(
                "delete-blockers:hold-passed", "The hold's time has passed on the app clock",
                blocked { [SampleData.pendingPayout(at: $0, holdReleasesAt: $0 - 600)] }),
        ]
    }
}
