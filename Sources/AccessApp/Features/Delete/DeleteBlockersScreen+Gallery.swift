import AccessAPI
import Foundation
import TerminalKit

extension DeleteBlockersScreen {
    public static var defaultGalleryState: String { "sessions" }

    /// The hub, then Delete account's Continue: the blockers are `GET /me/delete-preflight`'s answer. `kinds`, in
    /// the server's order, say which state it is for (`scenario` has them); another answer is said, not landed on.
    static func road(_ kinds: [String], scenario: String) -> Road {
        Roads.hub.then(["GET /me/delete-preflight"]) { api, hub in
            let preflight = try await Endpoint.DeletePreflight().perform(api)
            let found = preflight.blockers.map(\.kind.rawValue)
            guard found == kinds else {
                let what = found.isEmpty ? "nothing" : found.joined(separator: ", ")
                throw APIError.server(
                    status: 0, code: "other_blockers",
                    message:
                        "this scenario's delete check answered \(what), not \(kinds.joined(separator: ", ")) (\(scenario) has it)."
                )
            }
            return hub.pushing(DeleteAccountScreen()).pushing(DeleteBlockersScreen(blockers: preflight.blockers))
        }
    }

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
                road: road(["upcoming_sessions"], scenario: "coach-sessions"),
                blocked { [SampleData.upcomingSessions(at: $0)] }),
            GalleryEntry(
                "delete-blockers:payout", "Coach with a pending payout, part of it on hold",
                road: road(["pending_payout"], scenario: "coach-payout"),
                blocked { [SampleData.pendingPayout(at: $0)] }),
            GalleryEntry(
                "delete-blockers:bookings", "Athlete with upcoming bookings",
                road: road(["upcoming_bookings"], scenario: "athlete-bookings"),
                blocked { [SampleData.upcomingBookings(at: $0)] }),
            GalleryEntry(
                "delete-blockers:coach-both", "Coach with sessions and a payout: sessions first",
                road: road(["upcoming_sessions", "pending_payout"], scenario: "coach-both"),
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
