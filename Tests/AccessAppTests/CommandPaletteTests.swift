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

private func type(_ text: String, into state: inout AppState) {
    for character in text { _ = reduce(&state, .input(.key(.character(character)))) }
}

/// The palette opens over any screen, searches every command and runs the chosen one.
@Suite struct CommandPaletteTests {
    @Test func ctrlPOpensItAndAsksTheReferenceBackendForItsScenariosOnce() {
        var state = AppState(now: start)
        let effects = reduce(&state, .input(.key(.control("p"))))
        #expect(palette(state) != nil)
        #expect(
            effects == [.request(Endpoint.AdminListScenarios(), id: 1), .request(Endpoint.AdminListWorlds(), id: 2)])
        _ = reduce(&state, .input(.key(.escape)))
        #expect(state.overlay == nil)
        // Still loading: not asked twice.
        #expect(reduce(&state, .input(.key(.control("p")))) == [])
    }

    @Test func colonOpensItWhereNoTextIsTypedAndIsTextInAField() {
        var onList = AppState(now: start)
        _ = reduce(&onList, .input(.key(.character(":"))))
        #expect(palette(onList) != nil)

        var inField = AppState(root: SignInEmailScreen(), now: start)
        _ = reduce(&inField, .input(.key(.character(":"))))
        #expect(palette(inField) == nil)
        _ = reduce(&inField, .input(.key(.control("p"))))
        #expect(palette(inField) != nil)
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
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("clk 15", into: &state)
        #expect(palette(state)?.selected?.action == .moveClock(.by(seconds: 900)))
        let effects = reduce(&state, .input(.key(.enter)))
        #expect(state.overlay == nil)
        #expect(effects == [.request(MoveClock(move: .by(seconds: 900)), id: 3)])
    }

    /// Issue 29 items 1-2: values no list holds are typed, and the query's command comes first.
    @Test func aTypedClockMoveOrTimeIsTheFirstCommand() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("clock +90s", into: &state)
        #expect(palette(state)?.selected?.action == .moveClock(.by(seconds: 90)))
        _ = reduce(&state, .input(.key(.control("u"))))
        type("clock 2026-12-01T09:00", into: &state)
        let december = Date(timeIntervalSince1970: 1_796_115_600)
        #expect(palette(state)?.selected?.title == "Clock to 2026-12-01T09:00:00Z")
        let effects = reduce(&state, .input(.key(.enter)))
        #expect(effects == [.request(MoveClock(move: .to(december)), id: 3)])
    }

    /// Issue 30: "Sign in from another device" asks the reference backend for a sign-in from the chosen device.
    @Test func signInFromAnotherDeviceSendsItsDevice() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("sign in from another device android", into: &state)
        #expect(palette(state)?.selected?.action == .signInOtherDevice(.android))
        let effects = reduce(&state, .input(.key(.enter)))
        #expect(effects == [.request(SignInOtherDevice(device: .android), id: 3)])
        #expect(OtherDevice.android.info.deviceName == "QA Android phone")
        #expect(OtherDevice.android.method == .google)
    }

    @Test func aTypedFaultCarriesItsStatusCodeAndCount() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("fault /auth/me 409 account_suspended x2", into: &state)
        let fault = Components.Schemas.EndpointFault(
            path: "/auth/me", kind: .status, status: 409, code: "account_suspended", times: 2)
        #expect(
            palette(state)?.selected?.action
                == .setFaults(
                    FaultSettings(endpoints: [fault]),
                    label: "Fault on: status 409 account_suspended, 2 times on /auth/me"))
        _ = reduce(&state, .input(.key(.control("u"))))
        type("fault * latency 1500", into: &state)
        #expect(palette(state)?.selected?.title == "Fault: 1500 ms latency on every call")
    }

    /// Issue 29 item 6: the `body` kind (a chosen JSON answer) is typed too, its JSON as written.
    @Test func aTypedBodyFaultCarriesItsJSONStatusAndCount() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type(#"fault /me/profile body 201 {"display_name":  "A  B", "n": [1, 2]} x3"#, into: &state)
        let fault = Components.Schemas.EndpointFault(
            path: "/me/profile", kind: .body, body: #"{"display_name":  "A  B", "n": [1, 2]}"#, bodyStatus: 201,
            times: 3)
        #expect(
            palette(state)?.selected?.action
                == .setFaults(
                    FaultSettings(endpoints: [fault]), label: "Fault on: 201 with a chosen body, 3 times on /me/profile"
                ))
        _ = reduce(&state, .input(.key(.control("u"))))
        type("fault * body null", into: &state)
        #expect(
            palette(state)?.selected?.action
                == .setFaults(
                    FaultSettings(endpoints: [.init(path: "*", kind: .body, body: "null")]),
                    label: "Fault on: 200 with a chosen body on every call"))
        // Longer than a search: the whole typed JSON is kept.
        _ = reduce(&state, .input(.key(.control("u"))))
        let long = #"{"error":{"code":"account_suspended","message":"\#(String(repeating: "m", count: 200))"}}"#
        type("fault /me/profile body \(long)", into: &state)
        #expect(palette(state)?.selected?.title == "Fault: 200 with a chosen body on /me/profile")
        // A body that does not parse, or none, makes no command.
        for broken in [#"fault /me body {"a": }"#, "fault /me body", "fault /me body x2", #"fault me body {}"#] {
            _ = reduce(&state, .input(.key(.control("u"))))
            type(broken, into: &state)
            #expect(palette(state)?.commands.contains { $0.detail == "as typed" } == false, "\(broken)")
        }
    }

    /// What does not read as a command makes none; the grammar's row says what to type, and Enter on it
    /// starts the words.
    @Test func aQueryThatReadsAsNothingMakesNoCommand() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("fault /auth/me 42", into: &state)
        #expect(palette(state)?.commands.contains { $0.detail == "as typed" } == false)
        _ = reduce(&state, .input(.key(.control("u"))))
        type("your own status", into: &state)
        #expect(palette(state)?.selected?.action == .typed(.fault))
        #expect(reduce(&state, .input(.key(.enter))) == [])
        #expect(palette(state)?.query == "fault ")
    }

    /// What the list already holds is not made twice from the words.
    @Test func aTypedCommandTheListHoldsIsNotRepeated() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("clock freeze", into: &state)
        #expect(palette(state)?.commands.filter { $0.action == .moveClock(.frozen(true)) }.count == 1)
        #expect(palette(state)?.selected?.action == .moveClock(.frozen(true)))
    }

    @Test func freezingTheClockToastsIt() {
        var state = AppState(now: start)
        _ = reduce(&state, .moveClock(.frozen(true)))
        _ = reduce(&state, .reply(ClockAdvanced(from: start, now: start, events: []), to: RequestID(1)))
        #expect(state.toast?.message == "Clock frozen")
    }

    /// Readline's Ctrl+W and Ctrl+U edit the query as in every text field (issue 28 item 20).
    @Test func ctrlWDropsTheLastWordAndCtrlUTheWholeQuery() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("clock 15", into: &state)
        _ = reduce(&state, .input(.key(.control("w"))))
        #expect(palette(state)?.query == "clock ")
        type("30", into: &state)
        _ = reduce(&state, .input(.key(.control("u"))))
        #expect(palette(state)?.query == "")
        #expect(state.overlay != nil)
    }

    /// Issue 29 item 11: the palette is a long list like the others (Home/End to its ends, where the
    /// selection stands on its bottom border); letters stay the search, so g/G are text.
    @Test func homeAndEndGoToEitherEndAndTheBorderSaysWhere() throws {
        var state = AppState(now: start)
        state.size = .standard
        _ = reduce(&state, .input(.key(.control("p"))))
        let count = try #require(palette(state)?.matches.count)
        #expect(count > 20)
        #expect(render(state, size: .standard).text().contains(" 1 of \(count) "))
        _ = reduce(&state, .input(.key(.end)))
        #expect(palette(state)?.selection == count - 1)
        #expect(render(state, size: .standard).text().contains(" \(count) of \(count) "))
        _ = reduce(&state, .input(.key(.home)))
        #expect(palette(state)?.selection == 0)
        _ = reduce(&state, .input(.key(.pageDown)))
        #expect(palette(state)?.selection == 10)
        _ = reduce(&state, .input(.key(.character("G"))))
        #expect(palette(state)?.query == "G")
    }

    /// At 40 columns the placeholder is cut before the count ("a scree301/301" ran them together).
    @Test func atFortyColumnsThePlaceholderStopsASpaceBeforeTheCount() throws {
        var state = AppState(now: start)
        state.size = .minimum
        _ = reduce(&state, .input(.key(.control("p"))))
        let total = try #require(palette(state)?.commands.count)
        let lines = render(state, size: .minimum).textLines()
        let line = try #require(lines.first { $0.contains("> Type") })
        let count = "\(total)/\(total)"
        let countStart = try #require(line.range(of: count)).lowerBound
        #expect(line[line.index(before: countStart)] == " ")
        #expect(line.contains("…"))
    }

    @Test func scenariosArriveWhileItIsOpenAndStayUnderTheQuery() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("resend", into: &state)
        #expect(palette(state)?.selected == nil || palette(state)?.selected?.title.hasPrefix("Scenario") == false)
        let scenarios = [
            ScenarioSummary(name: "default", description: "Athlete with every method"),
            ScenarioSummary(name: "resend-exhausted", description: "3 resends in the last 15 min"),
        ]
        _ = reduce(&state, .reply(scenarios, to: RequestID(1)))
        #expect(palette(state)?.selected?.action == .switchScenario("resend-exhausted"))
        #expect(palette(state)?.query == "resend")
    }

    @Test func aSwitchedScenarioStartsTheAppOverSignedInWithAToast() {
        var state = AppState(now: start)
        state.stack.append(AnyScreen(HubScreen()))
        state.reauth = ReauthGrant(reauthToken: "ra_fixture", expiresAt: start + 600, method: .init(.password))
        _ = reduce(&state, .switchScenario("phone-only"))
        let methods = SampleData.everyMethod
        _ = reduce(
            &state,
            .reply(
                ScenarioSwitched(name: "phone-only", signedIn: QASignedIn(methods: methods, profile: nil)),
                to: RequestID(1)))
        #expect(state.stack.map(\.id) == ["settings"])
        #expect(state.methods == methods)
        #expect(state.reauth == nil)
        #expect(state.console.scenario == "phone-only")
        #expect(state.toast?.message == "Scenario: phone-only")
    }

    @Test func aScenarioThatStartsSignedOutLandsOnWelcomeWithNothingCached() {
        var state = AppState(now: start)
        state.methods = SampleData.everyMethod
        _ = reduce(&state, .switchScenario("new-user"))
        _ = reduce(&state, .reply(ScenarioSwitched(name: "new-user", signedIn: nil), to: RequestID(1)))
        #expect(state.stack.map(\.id) == ["welcome"])
        #expect(state.methods == nil)
    }

    @Test func aRefusedSwitchSaysWhyAndLeavesTheScreen() {
        var state = AppState(now: start)
        _ = reduce(&state, .switchScenario("nope"))
        _ = reduce(
            &state,
            .failure(.server(status: 404, code: "not_found", message: "No scenario named nope."), to: RequestID(1)))
        #expect(state.stack.map(\.id) == ["settings"])
        #expect(state.toast?.message.hasPrefix("Scenario nope not loaded") == true)
    }

    @Test func aClockMoveSaysWhatFellDueEachKindOnce() {
        var state = AppState(now: start)
        _ = reduce(&state, .moveClock(.toNextDeadline))
        let events = [
            DeadlineEvent(at: start + 300, kind: "otp_expired", subject: "1"),
            DeadlineEvent(at: start + 300, kind: "otp_expired", subject: "2"),
            DeadlineEvent(at: start + 300, kind: "reauth_expired", subject: "u"),
        ]
        _ = reduce(&state, .reply(ClockAdvanced(from: start, now: start + 300, events: events), to: RequestID(1)))
        #expect(state.toast?.message == "Clock +5 min: code expired, re-auth window closed")
    }

    @Test func aClockMoveWithNothingDueSaysSo() {
        var state = AppState(now: start)
        _ = reduce(&state, .moveClock(.by(seconds: 30)))
        _ = reduce(&state, .reply(ClockAdvanced(from: start, now: start + 30, events: []), to: RequestID(1)))
        #expect(state.toast?.message == "Clock +30 s: nothing fell due")
    }

    @Test func aFaultChosenIsSentAndTheBackendsAnswerKept() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("fault commit", into: &state)
        let effects = reduce(&state, .input(.key(.enter)))
        let sent = FaultSettings(endpoints: [.init(path: "*", kind: .commitThenFail)])
        #expect(effects == [.request(ChangeFaults(faults: sent), id: 3)])
        _ = reduce(&state, .reply(sent, to: RequestID(3)))
        #expect(state.console.faultSummary == "commit then fail on every call")
        #expect(state.toast?.message == "Fault on: commit then fail on every call")
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
        var state = AppState(now: start, options: AppOptions(hasReferenceBackend: false))
        let effects = reduce(&state, .input(.key(.control("p"))))
        #expect(effects == [])
        let commands = palette(state)?.commands ?? []
        #expect(commands.contains { $0.title == "Scenarios, clock and faults" && $0.action == .none })
        #expect(!commands.contains { $0.title.hasPrefix("Clock") })
    }

    @Test func looksSwitchLive() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("theme light", into: &state)
        _ = reduce(&state, .input(.key(.enter)))
        #expect(state.options.theme == .light)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("ascii on", into: &state)
        _ = reduce(&state, .input(.key(.enter)))
        #expect(state.options.ascii)
    }

    @Test func aKeyCommandActsAsItsKeyOnTheScreenBelow() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("open", into: &state)
        #expect(palette(state)?.selected?.action == .key(.enter))
        _ = reduce(&state, .input(.key(.enter)))
        #expect(state.top.id == "hub")
    }

    @Test func aGalleryStateOpensItsPreview() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("show hub:offline", into: &state)
        _ = reduce(&state, .input(.key(.enter)))
        #expect(state.top.as(PreviewScreen.self)?.entryID == "hub:offline")
    }

    @Test func fuzzyMatchWantsEveryCharacterInOrderAndPrefersRuns() {
        #expect(FuzzyMatch.score("rsx", in: "resend-exhausted") != nil)
        #expect(FuzzyMatch.score("xr", in: "resend-exhausted") == nil)
        let adjacent = FuzzyMatch.score("clock", in: "Clock +5 min") ?? 0
        let scattered = FuzzyMatch.score("clock", in: "Scenario: coach-locked") ?? 0
        #expect(adjacent > scattered)
    }
}

/// The gallery's preview, for demos: slides and live looks.
@Suite struct GalleryPreviewTests {
    @Test func arrowsGoThroughTheStatesLikeSlides() {
        let entries = Gallery.entries
        var state = AppState(now: start)
        state.stack.append(AnyScreen(PreviewScreen(entryID: entries[1].id)))
        _ = reduce(&state, .input(.key(.right)))
        #expect(state.top.as(PreviewScreen.self)?.entryID == entries[2].id)
        _ = reduce(&state, .input(.key(.left)))
        _ = reduce(&state, .input(.key(.left)))
        _ = reduce(&state, .input(.key(.left)))
        #expect(state.top.as(PreviewScreen.self)?.entryID == entries[0].id)
        _ = reduce(&state, .input(.key(.escape)))
        #expect(state.stack.count == 1)
    }

    @Test func platformRoleSizeAndThemeToggle() {
        var state = AppState(now: start)
        state.stack.append(AnyScreen(PreviewScreen(entryID: "hub:default")))
        _ = reduce(&state, .input(.key(.character("p"))))
        _ = reduce(&state, .input(.key(.character("r"))))
        _ = reduce(&state, .input(.key(.character("s"))))
        _ = reduce(&state, .input(.key(.character("t"))))
        let preview = state.top.as(PreviewScreen.self)
        #expect(preview?.platform == .android)
        #expect(preview?.role == .coach)
        #expect(preview?.size == Size(cols: 80, rows: 24))
        #expect(preview?.theme == .light)
        let shown = preview?.shownState(start, looks: state.options)
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
        let shown = harness.state.top.as(PreviewScreen.self)?.shownState(start, looks: harness.state.options)
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
        for _ in Theme.Name.allCases {
            _ = reduce(&state, .input(.key(.character("t"))))
            seen.append(state.paintedLooks.theme)
        }
        #expect(seen == [.dark, .light, .mono])
        #expect(state.options.theme == .mono)
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
