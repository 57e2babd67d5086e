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
        #expect(effects == [.request(LoadScenarios(), id: 1)])
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
        #expect(effects == [.request(MoveClock(move: .by(seconds: 900)), id: 2)])
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
        #expect(effects == [.request(MoveClock(move: .to(december)), id: 2)])
    }

    /// Issue 30: "Sign in from another device" asks the reference backend for a sign-in from the chosen device.
    @Test func signInFromAnotherDeviceSendsItsDevice() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.control("p"))))
        type("sign in from another device android", into: &state)
        #expect(palette(state)?.selected?.action == .signInOtherDevice(.android))
        let effects = reduce(&state, .input(.key(.enter)))
        #expect(effects == [.request(SignInOtherDevice(device: .android), id: 2)])
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
        #expect(effects == [.request(ChangeFaults(faults: sent), id: 2)])
        _ = reduce(&state, .reply(sent, to: RequestID(2)))
        #expect(state.console.faultSummary == "commit then fail on every call")
        #expect(state.toast?.message == "Fault on: commit then fail on every call")
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
        #expect(state.options.theme == .light)
        let shown = preview?.shownState(start)
        #expect(shown?.methods?.role.known == .coach)
        #expect(shown?.options.platform == .android)
    }

    @Test func aChosenSizeIsDrawnCentredWithItsCaption() {
        var state = AppState(now: start)
        state.stack.append(AnyScreen(PreviewScreen(entryID: "hub:default", size: Size(cols: 40, rows: 12))))
        let text = render(state, size: Size(cols: 100, rows: 30)).text()
        #expect(text.contains("hub:default · iOS · athlete · 40×12"))
    }
}
