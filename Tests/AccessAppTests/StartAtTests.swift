import AccessAPI
import AccessAppTesting
import AccessBackend
import AccessBackendTesting
import AccessCore
import Foundation
import Logging
import Testing

@testable import AccessApp

/// A replay on a fresh reference backend over real HTTP on 127.0.0.1, as `accessdeck play` runs one: the QA
/// sign-in (unless the scenario starts signed out), the app's clock following the backend's, `.started` sent.
enum LiveReplay {
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    static func with(
        scenario: String = "default", _ body: (inout TapeReplay, AccountClient, TestBackend) async throws -> Void
    ) async throws {
        try await TestBackend.with(scenario: scenario) { backend in
            var configuration = AccountClient.Configuration(baseURL: backend.running.baseURL)
            // As the other live suites: beside the in-process servers of a full run, a connect can wait for a core.
            configuration.requestTimeout = .seconds(30)
            configuration.connectTimeout = .seconds(30)
            let client = AccountClient(configuration: configuration, sessionStore: nil, logger: quiet)
            do {
                var signedIn = true
                do {
                    try await client.adminSignIn()
                } catch APIError.server(409, ErrorCode.signedOutScenario.rawValue, _) {
                    signedIn = false
                }
                let clock = FollowingClock(source: { backend.running.clock.now() })
                let replayBackend = ReferenceReplayBackend(
                    performer: ClientPerformer(client: client, cache: nil), clock: clock)
                let options = AppOptions(hasReferenceBackend: true)
                let state =
                    signedIn
                    ? AppState(root: SettingsScreen(), now: clock.now(), options: options)
                    : AppState(root: WelcomeScreen(), now: clock.now(), options: options)
                var replay = TapeReplay(state: state, size: .standard, backend: replayBackend)
                try await replay.send(.started)
                try await body(&replay, client, backend)
            } catch {
                await client.shutdown()
                throw error
            }
            await client.shutdown()
        }
    }

    /// Plays tape lines from where the replay stands.
    static func play(_ text: String, on replay: inout TapeReplay) async throws {
        try await replay.play(try Tape(parsing: text)) { _, _ in }
    }
}

/// Issue 51 item 4: `--start-at` reaches a gallery state by the backend calls a walk there makes, over real HTTP,
/// and stands on that state's screen with the backend's own state behind it.
@Suite struct StartAtTests {
    /// Each startable state's title, as seed 001 words it: a state given a road must be added here.
    static let titles = [
        "hub:default": "Account access",
        "reauth-picker:change-phone": "Verify it's you",
        "enter-phone:change": "New phone number",
        "enter-code:empty": "Enter the code",
        "enter-phone:taken": "New phone number",
        "sessions:many-devices": "Active sessions",
        "sessions:only-this-device": "Active sessions",
        "enter-code:sign-in-wrong": "Enter the code",
        "enter-code:sign-in-email": "Enter the code",
        "delete-blockers:sessions": "Delete account",
        "delete-blockers:payout": "Delete account",
        "delete-blockers:bookings": "Delete account",
        "delete-blockers:coach-both": "Delete account",
        "two-factor:on": "Two-factor authentication",
    ]

    /// The scenario each state's road is walked on, where the default one does not lead there.
    static let scenarios = [
        "enter-phone:taken": "taken-number",
        "sessions:many-devices": "many-devices",
        "enter-code:sign-in-wrong": "new-user",
        "enter-code:sign-in-email": "new-user",
        "delete-blockers:sessions": "coach-sessions",
        "delete-blockers:payout": "coach-payout",
        "delete-blockers:bookings": "athlete-bookings",
        "delete-blockers:coach-both": "coach-both",
        "two-factor:on": "two-factor",
    ]

    @Test func everyStartableStateIsCheckedHere() {
        #expect(StartAt.startable.map(\.id).sorted() == Self.titles.keys.sorted())
    }

    @Test(arguments: titles.keys.sorted())
    func startsOnTheStatesScreenByTheCallsItsRoadNames(_ id: String) async throws {
        let road = try #require(Gallery.entry(id)?.road)
        try await LiveReplay.with(scenario: Self.scenarios[id] ?? "default") { replay, _, _ in
            try await replay.send(.startAt(id))
            let state = replay.runtime.state
            #expect(StartAt.missed(id, on: state) == nil)
            #expect(renderFrame(state, size: .standard).screenTitle == Self.titles[id])
            #expect(state.defects.isEmpty)
            let root = road.signedIn ? ScreenType(SettingsScreen.self) : ScreenType(WelcomeScreen.self)
            #expect(state.stack.first?.is(root) == true)
            // Each call the road names is in the backend's journal, answered 2xx or with the status it names
            // ("{provider}": any value).
            let checks = road.calls.map { call -> String in
                let words = call.split(separator: " ")
                let pattern = words[1].firstIndex(of: "{").map { words[1][..<$0] + "*" } ?? words[1]
                return "expect-request \(words[0]) \(pattern) \(words.count > 2 ? words[2] : "2xx")"
            }
            #expect(!checks.isEmpty)
            try await LiveReplay.play(checks.joined(separator: "\n"), on: &replay)
        }
    }

    @Test func enterCodeStandsOnACodeTheBackendSentWithItsCountdowns() async throws {
        try await LiveReplay.with(scenario: "taken-number") { replay, _, backend in
            try await replay.send(.startAt("enter-code:empty"))
            let screen = try #require(replay.runtime.state.top.as(EnterCodeScreen.self))
            #expect(screen.step.destination == PhoneGallery.freeNumber)
            let now = backend.running.clock.now()
            #expect(abs(screen.expiresAt.timeIntervalSince(now) - CodeRules.lifetime) < 1)
            #expect(abs(screen.resendAfter.timeIntervalSince(now) - SendLimits.cooldown) < 1)
            #expect(replay.runtime.state.reauth != nil)
            // The road's calls are in the journal: "Verify it's you" by Google, then the new number's code.
            try await LiveReplay.play(
                """
                expect-request POST /_admin/provider/google/token 2xx times 1
                expect-request POST /auth/reauth/social 200 times 1
                expect-request POST /auth/phone/request-otp 2xx times 1
                expect-no-request /auth/phone/verify-otp
                code
                expect "Phone updated"
                """, on: &replay)
        }
    }

    @Test func aScenarioThatStartsSignedOutSaysWhyAndStaysOnWelcome() async throws {
        try await LiveReplay.with(scenario: "new-user") { replay, _, _ in
            try await replay.send(.startAt("hub:default"))
            let state = replay.runtime.state
            #expect(state.top.is(ScreenType(WelcomeScreen.self)))
            #expect(
                StartAt.missed("hub:default", on: state)
                    == "Not started at hub:default: hub:default is reached signed in, and this scenario starts signed out."
            )
        }
    }

    @Test func aUserWithoutAPhoneCannotBeVerifiedByTextAndItSaysSo() async throws {
        try await LiveReplay.with(scenario: "no-phone") { replay, _, _ in
            try await replay.send(.startAt("enter-code:empty"))
            let missed = try #require(StartAt.missed("enter-code:empty", on: replay.runtime.state))
            #expect(missed.contains("has no phone"))
            try await LiveReplay.play("expect-no-request /auth/phone/*", on: &replay)
        }
    }

    @Test func aScreenAloneMeansItsDefaultStateOrElseItsFirstWithARoad() {
        #expect(StartAt.resolve("enter-code") == .success("enter-code:empty"))
        #expect(StartAt.resolve("hub") == .success("hub:default"))
        // Its default state is the sign-in one, which no road reaches.
        #expect(StartAt.resolve("enter-phone") == .success("enter-phone:change"))
    }

    @Test func anUnknownOrUnreachableNameListsTheStatesThatCanBeStartedAt() {
        guard case .failure(let unknown) = StartAt.resolve("enter-cod") else {
            Issue.record("an unknown screen resolved")
            return
        }
        #expect(
            unknown.description
                == "no screen or state 'enter-cod'; --start-at takes one of: "
                + StartAt.startable.map(\.id).joined(separator: ", "))
        #expect(unknown.description.contains("enter-code:empty"))
        guard case .failure(let unreachable) = StartAt.resolve("hub:offline") else {
            Issue.record("a state without a road resolved")
            return
        }
        #expect(unreachable.description.hasPrefix("no backend calls are known to reach 'hub:offline'; "))
        #expect(StartAt.resolve("welcome") == .failure(StartAtProblem(name: "welcome", known: true)))
    }

    @Test func aTapeStartsAtAStateBeforeItsFirstStep() throws {
        let tape = try Tape(parsing: "scenario taken-number\nstart-at enter-code\nexpect title \"Enter the code\"")
        #expect(tape.scenario == "taken-number")
        #expect(tape.startAt == "enter-code:empty")
        #expect(
            throws: Tape.ParseError(line: 2, message: "start-at goes before the first step: the replay starts there")
        ) {
            try Tape(parsing: "key Enter\nstart-at enter-code")
        }
        #expect(throws: Tape.ParseError.self) { try Tape(parsing: "start-at hub:offline") }
    }
}

/// The roads beside the phone, sign-in and sessions states: each lands on what the backend answered, and a
/// scenario that answers otherwise says so rather than land there.
@Suite struct MoreStartAtRoadsTests {
    @Test func theTakenNumberIsTheBackends409OnThePhoneScreen() async throws {
        try await LiveReplay.with(scenario: "taken-number") { replay, _, _ in
            try await replay.send(.startAt("enter-phone:taken"))
            let screen = try #require(replay.runtime.state.top.as(EnterPhoneScreen.self))
            #expect(screen.error == EnterPhoneScreen.takenText)
            #expect(screen.e164 == PhoneGallery.newPhone)
            try await LiveReplay.play(
                """
                expect-request POST /auth/phone/request-otp 409 times 1
                expect "\(EnterPhoneScreen.takenText)"
                """, on: &replay)
        }
    }

    @Test func aScenarioWhereTheNumberIsFreeSaysSo() async throws {
        try await LiveReplay.with { replay, _, _ in
            try await replay.send(.startAt("enter-phone:taken"))
            let missed = try #require(StartAt.missed("enter-phone:taken", on: replay.runtime.state))
            #expect(missed.contains("belongs to nobody else in this scenario"))
        }
    }

    @Test func aWrongSignInCodeIsTheBackendsAnswerWithItsTriesLeft() async throws {
        try await LiveReplay.with(scenario: "new-user") { replay, _, _ in
            try await replay.send(.startAt("enter-code:sign-in-wrong"))
            let state = replay.runtime.state
            let screen = try #require(state.top.as(EnterCodeScreen.self))
            #expect(screen.step.destination == PhoneGallery.signInPhone)
            #expect(screen.entry.refusal == .incorrect(attemptsRemaining: CodeRules.maxWrongAttempts - 1))
            #expect(state.stack.map(\.base.id) == ["welcome", "sign-in", "enter-phone", "enter-code"])
            // The right code, typed now, is still taken: the walk cost one try, not the code.
            try await LiveReplay.play(
                """
                expect-request POST /auth/sign-in/code 2xx times 1
                expect-request POST /auth/sign-in/code/verify 401 times 1
                code
                expect-request POST /auth/sign-in/code/verify 200 times 1
                """, on: &replay)
        }
    }

    @Test func aSignedOutRoadOnAScenarioThatStartsSignedInSaysWhy() async throws {
        try await LiveReplay.with { replay, _, _ in
            try await replay.send(.startAt("enter-code:sign-in-wrong"))
            let missed = try #require(StartAt.missed("enter-code:sign-in-wrong", on: replay.runtime.state))
            #expect(missed.contains("is reached signed out, and this scenario starts signed in"))
            try await LiveReplay.play("expect-no-request /auth/sign-in/*", on: &replay)
        }
    }

    @Test func theSessionsListIsTheBackendsAndItsStateMatchesTheScenario() async throws {
        try await LiveReplay.with(scenario: "many-devices") { replay, _, _ in
            try await replay.send(.startAt("sessions"))
            let screen = try #require(replay.runtime.state.top.as(ActiveSessionsScreen.self))
            #expect(screen.others.count == 4)
        }
        try await LiveReplay.with { replay, _, _ in
            try await replay.send(.startAt("sessions:many-devices"))
            let missed = try #require(StartAt.missed("sessions:many-devices", on: replay.runtime.state))
            #expect(missed.contains("is signed in on no other device (many-devices is)"))
        }
    }
}

/// Delete account's blockers, two-factor on and the emailed sign-in code, reached by their roads.
@Suite struct BlockerAndEmailRoadsTests {
    @Test func aPendingPayoutIsTheBackendsBlockerBehindDeleteAccount() async throws {
        try await LiveReplay.with(scenario: "coach-payout") { replay, _, _ in
            try await replay.send(.startAt("delete-blockers:payout"))
            let state = replay.runtime.state
            let screen = try #require(state.top.as(DeleteBlockersScreen.self))
            let payout = try #require(screen.blockers.first?.payout)
            #expect(payout.availableMinor == 24550)
            #expect(payout.onHoldMinor == 7500)
            #expect(state.stack.map(\.base.id) == ["settings", "hub", "delete-account", "delete-blockers"])
            try await LiveReplay.play(
                "expect-request GET /me/delete-preflight 200 times 1\nexpect-no-request /auth/reauth/*", on: &replay)
        }
    }

    @Test func aScenarioWithOtherBlockersSaysWhatItAnswered() async throws {
        try await LiveReplay.with { replay, _, _ in
            try await replay.send(.startAt("delete-blockers:payout"))
            let missed = try #require(StartAt.missed("delete-blockers:payout", on: replay.runtime.state))
            #expect(missed.hasSuffix("delete check answered nothing, not pending_payout (coach-payout has it)."))
        }
    }

    @Test func twoFactorOnIsTheBackendsStatusAndOffSaysSo() async throws {
        try await LiveReplay.with(scenario: "two-factor") { replay, _, _ in
            try await replay.send(.startAt("two-factor"))
            let screen = try #require(replay.runtime.state.top.as(TwoFactorScreen.self))
            #expect(screen.status?.recoveryCodesRemaining == 10)
        }
        try await LiveReplay.with { replay, _, _ in
            try await replay.send(.startAt("two-factor:on"))
            let missed = try #require(StartAt.missed("two-factor:on", on: replay.runtime.state))
            #expect(missed.hasSuffix("two-factor is off for this scenario's user (two-factor has it on)."))
        }
    }

    @Test func theEmailedSignInCodeIsInTheOutboxAndSignsIn() async throws {
        try await LiveReplay.with(scenario: "new-user") { replay, _, _ in
            try await replay.send(.startAt("enter-code:sign-in-email"))
            let screen = try #require(replay.runtime.state.top.as(EnterCodeScreen.self))
            #expect(screen.step.isEmailed)
            #expect(screen.step.destination == PhoneGallery.signInEmail)
            try await LiveReplay.play(
                """
                expect-request POST /auth/sign-in/code 2xx times 1
                code
                expect-request POST /auth/sign-in/code/verify 200 times 1
                """, on: &replay)
        }
    }
}
