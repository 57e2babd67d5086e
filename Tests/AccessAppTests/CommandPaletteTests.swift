import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

private let start = Date(timeIntervalSince1970: 1_800_000_000)

private func palette(_ state: AppState) -> CommandPalette? {
    state.overlay?.as(CommandPalette.self)
}

private func type(_ text: String, into harness: ReducerHarness) {
    for character in text { harness.send(.input(.key(.character(character)))) }
}

/// The palette opens over any screen, searches every command and runs the chosen one.
@Suite struct CommandPaletteTests {
    @Test func ctrlPOpensItAndAsksTheReferenceBackendForItsScenariosOnce() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        let effects = harness.send(.input(.key(.control("p"))))
        #expect(palette(harness.state) != nil)
        #expect(
            effects == [.request(Endpoint.AdminListScenarios(), id: 1), .request(Endpoint.AdminListWorlds(), id: 2)])
        harness.send(.input(.key(.escape)))
        #expect(harness.state.overlay == nil)
        // Still loading: not asked twice.
        #expect(harness.send(.input(.key(.control("p")))) == [])
    }

    @Test func colonOpensItWhereNoTextIsTypedAndIsTextInAField() {
        let onListHarness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        onListHarness.send(.input(.key(.character(":"))))
        #expect(palette(onListHarness.state) != nil)

        let inFieldHarness = ReducerHarness(AppState(root: SignInEmailScreen(), now: start), exhaustivity: .off)
        inFieldHarness.send(.input(.key(.character(":"))))
        #expect(palette(inFieldHarness.state) == nil)
        inFieldHarness.send(.input(.key(.control("p"))))
        #expect(palette(inFieldHarness.state) != nil)
    }

    @Test func theScreensKeysAreCommandsWithTheirKeysShown() {
        let commands = CommandPalette.commands(for: AppState(now: start))
        let outbox = commands.first { $0.title == "Outbox" }
        #expect(outbox?.keyLabel == "Ctrl+O/F2")
        #expect(outbox?.action == .key(.control("o")))
        #expect(commands.contains { $0.title == "Open" && $0.keyLabel == "Enter" })
        // Moving the selection is not a command.
        #expect(!commands.contains { $0.title == "Move" })
    }

    @Test func typingNarrowsToTheBestMatchAndEnterRunsIt() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("clk 15", into: harness)
        #expect(palette(harness.state)?.selected?.action == .moveClock(.by(seconds: 900)))
        let effects = harness.send(.input(.key(.enter)))
        #expect(harness.state.overlay == nil)
        #expect(effects == [.request(MoveClock(move: .by(seconds: 900)), id: 3)])
    }

    /// Issue 51 item 5: "Save bug report" asks the app for its session's report, and the answer is toasted. It is
    /// offered on the embedded backend alone: with `--backend` the app never saw the world it started on.
    @Test func saveBugReportAsksTheAppAndToastsWhatItWrote() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("save bug report", into: harness)
        #expect(palette(harness.state)?.selected?.title == "Save bug report")
        #expect(harness.send(.input(.key(.enter))) == [.saveBugReport])
        harness.send(.exported(.success("accessdeck-bug-report-20261129-201502.zip")))
        #expect(harness.state.toast?.message == "Saved accessdeck-bug-report-20261129-201502.zip")
        harness.send(.exported(.failure(ExportFailure("this app keeps no session to report"))))
        #expect(harness.state.toast?.message == "Not saved: this app keeps no session to report")

        var remote = AppState(now: start)
        remote.options.backendIsEmbedded = false
        #expect(!CommandPalette.commands(for: remote).contains { $0.action == .saveBugReport })
    }

    /// Issue 29 items 1-2: values no list holds are typed, and the query's command comes first.
    @Test func aTypedClockMoveOrTimeIsTheFirstCommand() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("clock +90s", into: harness)
        #expect(palette(harness.state)?.selected?.action == .moveClock(.by(seconds: 90)))
        harness.send(.input(.key(.control("u"))))
        type("clock 2026-12-01T09:00", into: harness)
        let december = Date(timeIntervalSince1970: 1_796_115_600)
        #expect(palette(harness.state)?.selected?.title == "Clock to 2026-12-01T09:00:00Z")
        let effects = harness.send(.input(.key(.enter)))
        #expect(effects == [.request(MoveClock(move: .to(december)), id: 3)])
    }

    /// Issue 48 item 11: `clock 5` was five minutes (the preset it matched) and `clock +5` five seconds; a
    /// bare number is refused with the units now, and `clock +31 min` moves 31 minutes.
    @Test func aClockAmountNeedsItsUnit() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("clock 5", into: harness)
        #expect(palette(harness.state)?.selected?.title == "Clock: 5 needs a unit: +5s, +5m, +5h or +5d")
        #expect(palette(harness.state)?.selected?.action == PaletteAction.none)
        harness.send(.input(.key(.control("u"))))
        type("clock +5", into: harness)
        #expect(palette(harness.state)?.selected?.title == "Clock: +5 needs a unit: +5s, +5m, +5h or +5d")
        harness.send(.input(.key(.control("u"))))
        type("clock +31 min", into: harness)
        #expect(palette(harness.state)?.selected?.action == .moveClock(.by(seconds: 31 * 60)))
    }

    /// Issue 48 item 19: with no fault on, "Fault: clear all" (the shortest fault row) was the first hit for
    /// "fault"; it is offered only while a fault is on.
    @Test func clearAllIsOfferedOnlyWithAFaultOn() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("fault", into: harness)
        #expect(palette(harness.state)?.selected?.action != .clearFaults)
        #expect(palette(harness.state)?.commands.contains { $0.action == .clearFaults } == false)
        var faulty = AppState(now: start)
        faulty.console.faults = FaultSettings(offline: "503")
        let withFault = ReducerHarness(faulty, exhaustivity: .off)
        withFault.send(.input(.key(.control("p"))))
        type("fault clear", into: withFault)
        #expect(palette(withFault.state)?.selected?.action == .clearFaults)
    }

    /// Issue 30: "Sign in from another device" asks the reference backend for a sign-in from the chosen device.
    @Test func signInFromAnotherDeviceSendsItsDevice() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("sign in from another device android", into: harness)
        #expect(palette(harness.state)?.selected?.action == .signInOtherDevice(.android))
        let effects = harness.send(.input(.key(.enter)))
        #expect(effects == [.request(SignInOtherDevice(device: .android), id: 3)])
        #expect(OtherDevice.android.info.deviceName == "QA Android phone")
        #expect(OtherDevice.android.method == .google)
    }

    @Test func aTypedFaultCarriesItsStatusCodeAndCount() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("fault /auth/me 409 account_suspended x2", into: harness)
        let fault = Components.Schemas.EndpointFault(
            path: "/auth/me", kind: .status, status: 409, code: "account_suspended", times: 2)
        #expect(
            palette(harness.state)?.selected?.action
                == .setFaults(
                    FaultSettings(endpoints: [fault]),
                    label: "Fault on: status 409 account_suspended, 2 times on /auth/me"))
        harness.send(.input(.key(.control("u"))))
        type("fault * latency 1500", into: harness)
        #expect(palette(harness.state)?.selected?.title == "Fault: 1500 ms latency on every call")
    }

    /// Issue 29 item 6: the `body` kind (a chosen JSON answer) is typed too, its JSON as written.
    @Test func aTypedBodyFaultCarriesItsJSONStatusAndCount() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type(#"fault /me/profile body 201 {"display_name":  "A  B", "n": [1, 2]} x3"#, into: harness)
        let fault = Components.Schemas.EndpointFault(
            path: "/me/profile", kind: .body, body: #"{"display_name":  "A  B", "n": [1, 2]}"#, bodyStatus: 201,
            times: 3)
        #expect(
            palette(harness.state)?.selected?.action
                == .setFaults(
                    FaultSettings(endpoints: [fault]), label: "Fault on: 201 with a chosen body, 3 times on /me/profile"
                ))
        harness.send(.input(.key(.control("u"))))
        type("fault * body null", into: harness)
        #expect(
            palette(harness.state)?.selected?.action
                == .setFaults(
                    FaultSettings(endpoints: [.init(path: "*", kind: .body, body: "null")]),
                    label: "Fault on: 200 with a chosen body on every call"))
        // Longer than a search: the whole typed JSON is kept.
        harness.send(.input(.key(.control("u"))))
        let long = #"{"error":{"code":"account_suspended","message":"\#(String(repeating: "m", count: 200))"}}"#
        type("fault /me/profile body \(long)", into: harness)
        #expect(palette(harness.state)?.selected?.title == "Fault: 200 with a chosen body on /me/profile")
        // A body that does not parse, or none, makes no command.
        for broken in [#"fault /me body {"a": }"#, "fault /me body", "fault /me body x2", #"fault me body {}"#] {
            harness.send(.input(.key(.control("u"))))
            type(broken, into: harness)
            #expect(palette(harness.state)?.commands.contains { $0.detail == "as typed" } == false, "\(broken)")
        }
    }

    /// What does not read as a command makes none; the grammar's row says what to type, and Enter on it
    /// starts the words.
    @Test func aQueryThatReadsAsNothingMakesNoCommand() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("fault /auth/me 42", into: harness)
        #expect(palette(harness.state)?.commands.contains { $0.detail == "as typed" } == false)
        harness.send(.input(.key(.control("u"))))
        type("your own status", into: harness)
        #expect(palette(harness.state)?.selected?.action == .typed(.fault))
        #expect(harness.send(.input(.key(.enter))) == [])
        #expect(palette(harness.state)?.query == "fault ")
    }

    /// What the list already holds is not made twice from the words.
    @Test func aTypedCommandTheListHoldsIsNotRepeated() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("clock freeze", into: harness)
        #expect(palette(harness.state)?.commands.filter { $0.action == .moveClock(.frozen(true)) }.count == 1)
        #expect(palette(harness.state)?.selected?.action == .moveClock(.frozen(true)))
    }

    @Test func freezingTheClockToastsIt() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.moveClock(.frozen(true)))
        harness.send(.reply(ClockAdvanced(from: start, now: start, events: []), to: RequestID(1)))
        #expect(harness.state.toast?.message == "Clock frozen")
    }

    /// Readline's Ctrl+W and Ctrl+U edit the query as in every text field (issue 28 item 20).
    @Test func ctrlWDropsTheLastWordAndCtrlUTheWholeQuery() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("clock 15", into: harness)
        harness.send(.input(.key(.control("w"))))
        #expect(palette(harness.state)?.query == "clock ")
        type("30", into: harness)
        harness.send(.input(.key(.control("u"))))
        #expect(palette(harness.state)?.query == "")
        #expect(harness.state.overlay != nil)
    }

    /// Issue 29 item 11: the palette is a long list like the others (Home/End to its ends, where the
    /// selection stands on its bottom border); letters stay the search, so g/G are text.
    @Test func homeAndEndGoToEitherEndAndTheBorderSaysWhere() throws {
        var state = AppState(now: start)
        state.size = .standard
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        let count = try #require(palette(harness.state)?.matches.count)
        #expect(count > 20)
        #expect(render(harness.state, size: .standard).text().contains(" 1 of \(count) "))
        harness.send(.input(.key(.end)))
        #expect(palette(harness.state)?.selection == count - 1)
        #expect(render(harness.state, size: .standard).text().contains(" \(count) of \(count) "))
        harness.send(.input(.key(.home)))
        #expect(palette(harness.state)?.selection == 0)
        harness.send(.input(.key(.pageDown)))
        #expect(palette(harness.state)?.selection == 10)
        harness.send(.input(.key(.character("G"))))
        #expect(palette(harness.state)?.query == "G")
    }

    /// At 40 columns the placeholder is cut before the count ("a scree301/301" ran them together).
    @Test func atFortyColumnsThePlaceholderStopsASpaceBeforeTheCount() throws {
        var state = AppState(now: start)
        state.size = .minimum
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        let total = try #require(palette(harness.state)?.commands.count)
        let lines = render(harness.state, size: .minimum).textLines()
        let line = try #require(lines.first { $0.contains("> Type") })
        let count = "\(total)/\(total)"
        let countStart = try #require(line.range(of: count)).lowerBound
        #expect(line[line.index(before: countStart)] == " ")
        #expect(line.contains("…"))
    }

    @Test func scenariosArriveWhileItIsOpenAndStayUnderTheQuery() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("resend", into: harness)
        #expect(
            palette(harness.state)?.selected == nil
                || palette(harness.state)?.selected?.title.hasPrefix("Scenario") == false)
        let scenarios = [
            ScenarioSummary(name: "default", description: "Athlete with every method"),
            ScenarioSummary(name: "resend-exhausted", description: "3 resends in the last 15 min"),
        ]
        harness.send(.reply(scenarios, to: RequestID(1)))
        #expect(palette(harness.state)?.selected?.action == .switchScenario("resend-exhausted"))
        #expect(palette(harness.state)?.query == "resend")
    }

    @Test func aSwitchedScenarioStartsTheAppOverSignedInWithAToast() {
        var state = AppState(now: start)
        state.stack.append(AnyScreen(HubScreen()))
        state.reauth = ReauthGrant(reauthToken: "ra_fixture", expiresAt: start + 600, method: .init(.password))
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.switchScenario("phone-only"))
        let methods = SampleData.everyMethod
        harness.send(
            .reply(
                ScenarioSwitched(name: "phone-only", signedIn: QASignedIn(methods: methods, profile: nil)),
                to: RequestID(1)))
        #expect(harness.state.stack.map(\.id) == ["settings"])
        #expect(harness.state.methods == methods)
        #expect(harness.state.reauth == nil)
        #expect(harness.state.console.scenario == "phone-only")
        #expect(harness.state.toast?.message == "Scenario: phone-only")
    }

    @Test func aScenarioThatStartsSignedOutLandsOnWelcomeWithNothingCached() {
        var state = AppState(now: start)
        state.methods = SampleData.everyMethod
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.switchScenario("new-user"))
        harness.send(.reply(ScenarioSwitched(name: "new-user", signedIn: nil), to: RequestID(1)))
        #expect(harness.state.stack.map(\.id) == ["welcome"])
        #expect(harness.state.methods == nil)
    }

    @Test func aRefusedSwitchSaysWhyAndLeavesTheScreen() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.switchScenario("nope"))
        harness.send(
            .failure(.server(status: 404, code: "not_found", message: "No scenario named nope."), to: RequestID(1)))
        #expect(harness.state.stack.map(\.id) == ["settings"])
        #expect(harness.state.toast?.message.hasPrefix("Scenario nope not loaded") == true)
    }

    @Test func aClockMoveSaysWhatFellDueEachKindOnce() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.moveClock(.toNextDeadline))
        let events = [
            DeadlineEvent(at: start + 300, kind: "otp_expired", subject: "1"),
            DeadlineEvent(at: start + 300, kind: "otp_expired", subject: "2"),
            DeadlineEvent(at: start + 300, kind: "reauth_expired", subject: "u"),
        ]
        harness.send(.reply(ClockAdvanced(from: start, now: start + 300, events: events), to: RequestID(1)))
        #expect(harness.state.toast?.message == "Clock +5 min: code expired, re-auth window closed")
    }

    @Test func aClockMoveWithNothingDueSaysSo() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.moveClock(.by(seconds: 30)))
        harness.send(.reply(ClockAdvanced(from: start, now: start + 30, events: []), to: RequestID(1)))
        #expect(harness.state.toast?.message == "Clock +30 s: nothing fell due")
    }

    @Test func aFaultChosenIsSentAndTheBackendsAnswerKept() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("fault commit", into: harness)
        let effects = harness.send(.input(.key(.enter)))
        let sent = FaultSettings(endpoints: [.init(path: "*", kind: .commitThenFail)])
        #expect(effects == [.request(ChangeFaults(faults: sent), id: 3)])
        harness.send(.reply(sent, to: RequestID(3)))
        #expect(harness.state.console.faultSummary == "commit then fail on every call")
        #expect(harness.state.toast?.message == "Fault on: commit then fail on every call")
    }

    @Test func theSummaryNamesABodyFaultsStatusAndWhatIsLeftOfACount() {
        var state = AppState(now: start)
        let faults = FaultSettings(endpoints: [
            .init(path: "/me/profile", kind: .body, body: "{}", bodyStatus: 201),
            .init(path: "/auth/phone", kind: .status, status: 429, code: "rate_limited", times: 3, remaining: 2),
        ])
        state.console.faults = faults
        #expect(
            state.console.faultSummary
                == "201 with a chosen body on /me/profile, status 429 rate_limited, 2 times on /auth/phone")
    }

    @Test func withoutTheReferenceBackendItSaysWhatIsMissingAndAsksNothing() {
        let harness = ReducerHarness(
            AppState(now: start, options: AppOptions(hasReferenceBackend: false)), exhaustivity: .off)
        let effects = harness.send(.input(.key(.control("p"))))
        #expect(effects == [])
        let commands = palette(harness.state)?.commands ?? []
        #expect(commands.contains { $0.title == "Scenarios, clock and faults" && $0.action == .none })
        #expect(!commands.contains { $0.title.hasPrefix("Clock") })
    }

    @Test func looksSwitchLive() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("theme light", into: harness)
        harness.send(.input(.key(.enter)))
        #expect(harness.state.options.theme == .light)
        harness.send(.input(.key(.control("p"))))
        type("ascii on", into: harness)
        harness.send(.input(.key(.enter)))
        #expect(harness.state.options.ascii)
    }

    @Test func aKeyCommandActsAsItsKeyOnTheScreenBelow() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("open", into: harness)
        #expect(palette(harness.state)?.selected?.action == .key(.enter))
        harness.send(.input(.key(.enter)))
        #expect(harness.state.top.id == "hub")
    }

    @Test func aGalleryStateOpensItsPreview() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        type("show hub:offline", into: harness)
        harness.send(.input(.key(.enter)))
        #expect(harness.state.top.as(PreviewScreen.self)?.entryID == "hub:offline")
    }

    @Test func fuzzyMatchWantsEveryCharacterInOrderAndPrefersRuns() {
        #expect(FuzzyMatch.score("rsx", in: "resend-exhausted") != nil)
        #expect(FuzzyMatch.score("xr", in: "resend-exhausted") == nil)
        let adjacent = FuzzyMatch.score("clock", in: "Clock +5 min") ?? 0
        let scattered = FuzzyMatch.score("clock", in: "Scenario: coach-locked") ?? 0
        #expect(adjacent > scattered)
    }

    /// Issue 48 item 12: a query word that starts a word of the title (or is one) ranks first, whatever the
    /// length: `scenario taken` is taken-number before email-taken.
    @Test func aQueryWordThatStartsAWordRanksFirst() throws {
        let starts = try #require(FuzzyMatch.score("scenario taken", in: "Scenario: taken-number"))
        let inside = try #require(FuzzyMatch.score("scenario taken", in: "Scenario: email-taken"))
        #expect(starts > inside)
        let whole = try #require(FuzzyMatch.score("coach", in: "Scenario: coach"))
        let prefix = try #require(FuzzyMatch.score("coach", in: "Scenario: coach-both"))
        #expect(whole > prefix)
    }
}

/// The gallery's preview, for demos: slides and live looks.
@Suite struct GalleryPreviewTests {
    @Test func arrowsGoThroughTheStatesLikeSlides() {
        let entries = Gallery.entries
        var state = AppState(now: start)
        state.stack.append(AnyScreen(PreviewScreen(entryID: entries[1].id)))
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.right))) { $0.top = AnyScreen(PreviewScreen(entryID: entries[2].id)) }
        #expect(harness.state.top.as(PreviewScreen.self)?.entryID == entries[2].id)
        harness.send(.input(.key(.left))) { $0.top = AnyScreen(PreviewScreen(entryID: entries[1].id)) }
        harness.send(.input(.key(.left))) { $0.top = AnyScreen(PreviewScreen(entryID: entries[0].id)) }
        // The first state has none before it.
        harness.send(.input(.key(.left)))
        #expect(harness.state.top.as(PreviewScreen.self)?.entryID == entries[0].id)
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
        #expect(harness.state.stack.count == 1)
    }

    @Test func platformRoleSizeAndThemeToggle() {
        var state = AppState(now: start)
        state.stack.append(AnyScreen(PreviewScreen(entryID: "hub:default")))
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.character("p")))) {
            $0.top = AnyScreen(PreviewScreen(entryID: "hub:default", platform: .android))
        }
        harness.send(.input(.key(.character("r")))) {
            $0.top = AnyScreen(PreviewScreen(entryID: "hub:default", platform: .android, role: .coach))
        }
        let standard = Size(cols: 80, rows: 24)
        harness.send(.input(.key(.character("s")))) {
            $0.top = AnyScreen(PreviewScreen(entryID: "hub:default", platform: .android, role: .coach, size: standard))
        }
        harness.send(.input(.key(.character("t")))) {
            $0.top = AnyScreen(
                PreviewScreen(entryID: "hub:default", platform: .android, role: .coach, size: standard, theme: .light))
        }
        let preview = harness.state.top.as(PreviewScreen.self)
        #expect(preview?.platform == .android)
        #expect(preview?.role == .coach)
        #expect(preview?.size == Size(cols: 80, rows: 24))
        #expect(preview?.theme == .light)
        let shown = preview?.shownState(looks: harness.state.options)
        #expect(shown?.methods?.role.known == .coach)
        #expect(shown?.options.platform == .android)
        #expect(shown?.options.theme == .light)
    }

    /// Issue 29, item 7: `t` and `a` in the preview changed the app's looks, so Settings stayed light or
    /// ASCII after leaving it. They are the preview's own: the app's options never change.
    @Test func themeAndASCIIAreThePreviewsOwnAndLeavingRestoresTheApps() {
        var state = AppState(now: start)
        state.stack.append(AnyScreen(PreviewScreen(entryID: "hub:default")))
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.character("t")))) {
            $0.top = AnyScreen(PreviewScreen(entryID: "hub:default", theme: .light))
        }
        harness.send(.input(.key(.character("a")))) {
            $0.top = AnyScreen(PreviewScreen(entryID: "hub:default", theme: .light, ascii: true))
        }
        #expect(harness.state.paintedLooks == (theme: .light, ascii: true))
        #expect(harness.state.options.theme == .dark && !harness.state.options.ascii)
        let shown = harness.state.top.as(PreviewScreen.self)?.shownState(looks: harness.state.options)
        #expect(shown?.options.theme == .light && shown?.options.ascii == true)
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
        #expect(harness.state.paintedLooks == (theme: .dark, ascii: false))
    }

    @Test func theThemeGoesRoundFromTheAppsOwn() {
        var options = AppOptions()
        options.theme = .mono
        var state = AppState(now: start, options: options)
        state.stack.append(AnyScreen(PreviewScreen(entryID: "hub:default")))
        var seen: [Theme.Name] = []
        let harness = ReducerHarness(state, exhaustivity: .off)
        for _ in Theme.Name.allCases {
            harness.send(.input(.key(.character("t"))))
            seen.append(harness.state.paintedLooks.theme)
        }
        #expect(seen == [.dark, .light, .mono])
        #expect(harness.state.options.theme == .mono)
    }

    /// Issue 29, item 7: the preview's footer was the shown state's ("r Reload", "Esc/← Back") while `r`
    /// switched the role and ← went to the previous state. It is the preview's own line now.
    @Test func theFooterIsThePreviewsOwnWithTheStatesPosition() throws {
        let entries = Gallery.entries
        let index = try #require(entries.firstIndex { $0.id == "hub:default" })
        var state = AppState(now: start)
        state.stack.append(AnyScreen(PreviewScreen(entryID: "hub:default")))
        let footer = render(state, size: Size(cols: 120, rows: 30)).textLines().last ?? ""
        #expect(footer.hasPrefix("  hub:default · \(index + 1) of \(entries.count)  "), "\(footer)")
        let hints = [
            "←→ State", "Esc Back", "t Theme", "a ASCII", "p Platform", "r Role", "s Size", "?/F1 Help", "q Quit",
        ]
        #expect(footer.hasSuffix(hints.joined(separator: "  ")), "\(footer)")
        #expect(!footer.contains("Reload") && !footer.contains("Esc/←"), "\(footer)")
        // 80 columns: the way out and the looks first, the rest in the `?` help.
        let narrow = render(state, size: .standard).textLines().last ?? ""
        #expect(narrow.contains("←→ State  Esc Back  t Theme  a ASCII"), "\(narrow)")
    }

    @Test func aClickOnThePreviewsFooterIsItsKey() throws {
        var runtime = HeadlessRuntime(
            state: Gallery.entry("preview:hub-default")!.makeState(start), size: Size(cols: 120, rows: 30))
        let footer = runtime.screen.textLines().last ?? ""
        let range = try #require(footer.range(of: "t Theme"))
        let x = DisplayWidth.of(String(footer[..<range.lowerBound]))
        runtime.send(.input(.mouse(MouseEvent(.leftClick, at: Point(x: x, y: 29)))))
        #expect(runtime.state.top.as(PreviewScreen.self)?.theme == .light)
    }

    @Test func aChosenSizeIsDrawnCentredWithItsCaption() {
        var state = AppState(now: start)
        state.stack.append(AnyScreen(PreviewScreen(entryID: "hub:default", size: Size(cols: 40, rows: 12))))
        let lines = render(state, size: Size(cols: 100, rows: 30)).textLines()
        // 12 rows centred in the 28 above the caption and the preview's line: rows 8 to 19, the caption on 20.
        #expect(lines[8].contains("Account access"))
        #expect(lines[20].contains("hub:default · iOS · athlete · 40×12"))
        #expect(lines[29].hasPrefix("  hub:default · "), "the preview's own line: \(lines[29])")
        #expect(lines[29].contains("t Theme"))
    }
}
