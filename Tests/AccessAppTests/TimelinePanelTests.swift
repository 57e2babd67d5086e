import AccessAPI
import AccessAppTesting
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 49 item 2: the Timeline panel, found from the palette for anyone ("Timeline: find user…") or the
/// signed-in user; absolute times beside relative ones on the app's clock, `/` filters, Enter shows one event
/// with its rule's plain words and what the person saw.
@Suite struct TimelinePanelTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func event(
        _ id: Int, _ kind: EventKind, at: Date, rule: Rule? = nil, detail: [String: String] = [:]
    )
        -> TimelineEvent
    {
        TimelineEvent(
            id: id, at: at, kind: kind.rawValue, userId: "usr_athlete", subject: "+995511100000", rule: rule?.rawValue,
            sessionId: "sf_one", deviceId: nil, clientAddress: "127.0.0.1", detail: .init(additionalProperties: detail))
    }

    var events: [TimelineEvent] {
        [
            event(1, .codeSent, at: start - 600, detail: ["channel": "sms", "purpose": "sign_in"]),
            event(
                2, .sendRefused, at: start - 590, rule: .rateLimitCooldown,
                detail: ["limit": "cooldown", "retry_after": "20", "message": "Please wait 20 s before resending."]),
            event(3, .sessionEnded, at: start - 60, detail: ["reason": "password_changed"]),
        ]
    }

    func panel(_ harness: ReducerHarness) -> TimelinePanel? { harness.state.overlay?.as(TimelinePanel.self) }

    func text(_ harness: ReducerHarness) -> String { render(harness.state, size: .standard).text() }

    @Test func findUserInThePaletteOpensTheirTimeline() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        for character in "timeline: find" { harness.send(.input(.key(.character(character)))) }
        #expect(harness.state.overlay?.as(CommandPalette.self)?.selected?.title == "Timeline: find user…")
        harness.send(.input(.key(.enter)))
        for character in "+995511100000" { harness.send(.input(.key(.character(character)))) }
        #expect(harness.state.overlay?.as(CommandPalette.self)?.selected?.action == .timeline("+995511100000"))
        let effects = harness.send(.input(.key(.enter)))
        #expect(panel(harness)?.user == "+995511100000")
        #expect(effects.contains { $0 == .request(LoadTimeline(user: "+995511100000"), id: 3) })
    }

    @Test func thisAccountAsksForTheSignedInUser() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        for character in "timeline: this account" { harness.send(.input(.key(.character(character)))) }
        #expect(harness.state.overlay?.as(CommandPalette.self)?.selected?.action == .timeline(nil))
        let effects = harness.send(.input(.key(.enter)))
        #expect(effects.contains { $0 == .request(LoadTimeline(user: nil), id: 3) })
    }

    @Test func eventsShowTheirTimeAndAgeNewestFirstAndEnterShowsTheRuleAndWhatTheySaw() {
        var state = SampleData.state([], now: start)
        state.size = .standard
        state.overlay = AnyOverlay(TimelinePanel(user: "+995511100000"))
        state.pending[RequestID(1)] = state.waiting(.overlay, LoadTimeline.self, TimelinePanel.Reply.loaded)
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.reply(Timeline(userId: "usr_athlete", events: events), to: RequestID(1)))
        #expect(panel(harness)?.shown.map(\.id) == [3, 2, 1])
        let list = text(harness)
        #expect(list.contains("Timeline: +995511100000"))
        #expect(list.contains("2027-01-15 07:59:00 UTC · 1 min ago · Session ended"))
        #expect(list.contains("10 min ago · Code sent"))
        #expect(list.contains("limit cooldown · retry after 20 · rule rate_limit.cooldown"))

        // `/` keeps what matches: the refused send.
        for key: Key in [.character("/"), .character("r"), .character("e"), .character("f"), .enter] {
            harness.send(.input(.key(key)))
        }
        #expect(panel(harness)?.shown.map(\.id) == [2])
        harness.send(.input(.key(.enter)))
        #expect(panel(harness)?.showsDetail == true)
        let detail = text(harness)
        #expect(detail.contains("Rule rate_limit.cooldown"))
        #expect(detail.contains(String(Rule.rateLimitCooldown.summary.prefix(30))))
        #expect(detail.contains("What they saw"))
        #expect(detail.contains("Please wait 20 s before resending."))
        harness.send(.input(.key(.escape)))
        #expect(panel(harness)?.showsDetail == false)

        // A session's end says the sentence the signed-out device showed.
        let ended = events[2]
        #expect(
            TimelinePanel.seen(ended) == "You were signed out because your password was changed on another device.")
        #expect(TimelinePanel.words(event(9, .codeSent, at: start)) == "Code sent")
        var unknown = ended
        unknown.kind = "moon_landed"
        #expect(TimelinePanel.words(unknown) == "moon_landed")
    }
}
