import AccessAPI
import AccessConform
import AccessCore
import Foundation
import TerminalKit

extension HubScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("hub:loading", "First fetch: skeleton rows") { SampleData.state([], methods: nil, now: $0) },
            GalleryEntry("hub:default", "Every method set up (athlete)", road: Roads.hub) {
                SampleData.state([], now: $0)
            },
            GalleryEntry("hub:no-phone", "No phone: Add pill; Apple not connected") {
                SampleData.state([], methods: SampleData.noPhone, now: $0)
            },
            GalleryEntry("hub:phone-only", "Phone is the only method") {
                SampleData.state([], methods: SampleData.phoneOnly, now: $0)
            },
            GalleryEntry("hub:apple-only", "Apple is the only method (coach: same screen)") {
                SampleData.state([], methods: SampleData.appleOnly, now: $0)
            },
            GalleryEntry("hub:android", "Android: the Apple row is hidden") {
                SampleData.state([], now: $0, options: AppOptions(platform: .android))
            },
            GalleryEntry("hub:refreshing", "r pressed: the rows stay, a sign says the reload is under way") { now in
                var state = SampleData.state([], now: now)
                state.top = AnyScreen(HubScreen(isLoading: true))
                return state
            },
            GalleryEntry("hub:faults-on", "QA left a fault on and moved the clock: the status strip says so") { now in
                var state = SampleData.state([], now: now)
                state.console.scenario = "coach"
                state.console.faults = FaultSettings(latencyMs: 2000)
                state.console.clockOffset = 300
                return state
            },
            GalleryEntry("hub:offline", "Offline: banner, cached values, writes disabled") { now in
                var state = SampleData.state([], now: now)
                state.isOffline = true
                state.banner = .offline
                return state
            },
            GalleryEntry("hub:outbox", "The outbox panel over the hub") { now in
                var state = SampleData.state([], now: now)
                state.overlay = .outbox(OutboxPanel(messages: SampleData.outbox(at: now), isLoading: false))
                return state
            },
            GalleryEntry("hub:conformance", "Run conformance finished: one rule broken, the rest kept or skipped") {
                now in
                var state = SampleData.state([], now: now)
                state.overlay = AnyOverlay(ConformPanel.sample(finished: true))
                return state
            },
            GalleryEntry("hub:conformance-running", "Run conformance under way: the progress line") { now in
                var state = SampleData.state([], now: now)
                state.overlay = AnyOverlay(ConformPanel.sample(finished: false))
                return state
            },
            GalleryEntry("hub:conformance-broken", "Enter on a broken rule: expected, got, the spec note") { now in
                var state = SampleData.state([], now: now)
                var panel = ConformPanel.sample(finished: true)
                panel.selection = 1
                panel.detail = Rule.otpCodeIncorrect.rawValue
                state.overlay = AnyOverlay(panel)
                return state
            },
            GalleryEntry("hub:limited", "Limited access: the methods shown, every change closed") {
                SampleData.limitedState([HubScreen()], now: $0)
            },
        ]
    }
}

extension ConformPanel {
    /// A run against the reference backend's conform world: kept, one broken (its exchange redacted as the
    /// library redacts it), skipped and cannot tell; finished, the rules without a check follow.
    static func sample(finished: Bool) -> ConformPanel {
        let rules: [Rule] = [.otpExpired, .otpCodeIncorrect, .otpResent, .reauthRequired, .sessionRefreshReused]
        var results = [
            RuleResult(
                .otpExpired, title: "a code dies \(RuleText.duration(CodeRules.lifetime)) after it is sent",
                verdict: .kept),
            RuleResult(
                .otpCodeIncorrect, title: "a wrong code is refused and counted",
                verdict: .broken(
                    expected: "401 code_incorrect with attempts_remaining 4", got: "200",
                    evidence: [
                        "POST /auth/phone/verify\n  request: {\"code\":\"[redacted]\",\"request_id\":\"r1\"}"
                            + "\n  response: 200 {\"access_token\":\"[redacted]\"}"
                    ])),
            RuleResult(.otpResent, title: "", verdict: .skipped("needs the reference backend's clock")),
        ]
        if finished {
            results += [
                RuleResult(.reauthRequired, title: "", verdict: .cannotTell("POST /auth/reauth answered 503")),
                RuleResult(
                    .sessionRefreshReused, title: "a reused refresh token ends the sign-in", verdict: .kept),
            ]
        }
        var panel = ConformPanel(
            target: "http://127.0.0.1:8080/w/conform", rules: rules, run: ConformRun(results))
        if finished {
            panel.run.results += [Rule.deviceInvalid, .httpPathNotCanonical].map {
                RuleResult($0, verdict: .notChecked)
            }
        }
        return panel
    }
}
