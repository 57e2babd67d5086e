import AccessAPI
import AccessAppTesting
import AccessBackend
import AccessBackendTesting
import AccessCore
import Foundation
import Logging
import Testing

@testable import AccessApp

/// Issue 48 item 1: a scenario switch while calls time out left the old world on screen. The switch wins over
/// every call in flight: whatever was asked before it answers into nothing, and the app starts over on the
/// scenario's first screen with nothing of the old world's, even when the new world's data finds no answer.
@Suite struct SwitchWhileCallsTimeOutTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// On the hub of the default world, offline after a reload that timed out: the banner, the probe set.
    func hubOffline() -> ReducerHarness {
        var state = SampleData.state([], methods: SampleData.everyMethod, now: start)
        state.console.scenario = "default"
        state.console.epoch = 1
        return ReducerHarness(state, exhaustivity: .off)
    }

    func id(of request: any APIRequest.Type, in effects: [Effect]) -> RequestID? {
        effects.lazy.compactMap { effect -> RequestID? in
            guard case .request(let sent, let id) = effect, type(of: sent.base) == request else { return nil }
            return id
        }.first
    }

    /// The old world's answers come in late, after the switch landed: the hub's reload with the default user's
    /// methods, and the offline probe's session check with the default user (`oldUser`) or a time-out. None of
    /// it reaches the new world: no old data, no offline banner raised again.
    @Test(arguments: [true, false]) func answersAskedBeforeTheSwitchChangeNothingAfterIt(oldUser: Bool) throws {
        let harness = hubOffline()
        let reload = try #require(id(of: LoadAuthMethods.self, in: harness.send(.input(.key(.character("r"))))))
        harness.send(.failure(.offline(reason: "timed out"), to: reload))
        #expect(harness.state.isOffline)
        // The probe asks whether the backend is back; the reload asks again.
        let probe = try #require(id(of: ProbeBackend.self, in: harness.send(.probe)))
        let again = try #require(id(of: LoadAuthMethods.self, in: harness.send(.input(.key(.character("r"))))))

        let switched = try #require(id(of: SwitchScenario.self, in: harness.send(.switchScenario("apple-only"))))
        harness.send(.reply(ScenarioSwitched(name: "apple-only", signedIn: nil, epoch: 2), to: switched))
        #expect(harness.state.stack.map(\.id) == ["welcome"])
        #expect(!harness.state.isOffline)

        harness.send(.reply(SampleData.everyMethod, to: again))
        if oldUser {
            let me = CurrentUser(userId: "usr_athlete", deviceId: "dvc_1", authMethods: SampleData.everyMethod)
            harness.send(.reply(ProbeBackend.Answer.me(me), to: probe))
        } else {
            harness.send(.failure(.offline(reason: "timed out"), to: probe))
        }
        #expect(harness.state.methods == nil)
        #expect(harness.state.profile == nil)
        #expect(!harness.state.isOffline)
        #expect(harness.state.banner == nil)
        #expect(harness.state.stack.map(\.id) == ["welcome"])
        #expect(harness.state.console.scenario == "apple-only")
        #expect(harness.state.defects.isEmpty)
    }

    /// A switch the backend refuses leaves the app in the old world, where the answers it waits for still land.
    @Test func aRefusedSwitchLeavesTheOldWorldItsAnswers() throws {
        let harness = hubOffline()
        let reload = try #require(id(of: LoadAuthMethods.self, in: harness.send(.input(.key(.character("r"))))))
        let switched = try #require(id(of: SwitchScenario.self, in: harness.send(.switchScenario("nope"))))
        harness.send(
            .failure(.server(status: 404, code: "not_found", message: "No scenario named nope."), to: switched))
        harness.send(.reply(SampleData.phoneOnly, to: reload))
        #expect(harness.state.methods == SampleData.phoneOnly)
        #expect(harness.state.stack.map(\.id) == ["settings", "hub"])
        #expect(harness.state.top.as(HubScreen.self)?.isLoading == false)
    }

    /// The new world is loaded and signed in, but `GET /me/auth-methods` timed out: its first screen, nothing
    /// of the old world's, the offline banner; the strip and the toast name the new scenario.
    @Test func aSwitchWhoseDataTimedOutStillStartsOverInTheNewWorld() throws {
        let harness = hubOffline()
        harness.send(.input(.key(.character("r"))))
        let switched = try #require(id(of: SwitchScenario.self, in: harness.send(.switchScenario("apple-only"))))
        let landed = harness.send(
            .reply(ScenarioSwitched(name: "apple-only", signedIn: nil, epoch: 2, dataUnanswered: true), to: switched))
        #expect(harness.state.stack.map(\.id) == ["settings"])
        #expect(harness.state.methods == nil)
        #expect(harness.state.isOffline)
        #expect(harness.state.banner == .offline)
        #expect(harness.state.console.scenario == "apple-only")
        #expect(harness.state.console.switching == nil)
        #expect(harness.state.console.epoch == 2)
        #expect(harness.state.toast?.message == "Scenario: apple-only")
        // The probe asks for the new world's data once it answers.
        #expect(landed.contains(.after(seconds: Probe.firstWait, action: .probe, id: .probe)))
        let probe = try #require(id(of: ProbeBackend.self, in: harness.advance(by: Probe.firstWait)))
        let appleUser = CurrentUser(userId: "usr_apple", deviceId: "dvc_1", authMethods: SampleData.appleOnly)
        harness.send(.reply(ProbeBackend.Answer.me(appleUser), to: probe))
        #expect(harness.state.methods == SampleData.appleOnly)
        #expect(!harness.state.isOffline)
        let hub = render(harness.state, size: .standard).text()
        #expect(!hub.contains("You're offline"))
    }

    /// The switch itself over real HTTP while the new world's data finds no answer (the backend closes
    /// `GET /me/auth-methods` without one, as a call past the time-out ends): the world is loaded and signed in
    /// (admin paths take no fault), and the switch answers instead of failing.
    @Test func theSwitchRequestAnswersWhileTheDataFindsNoAnswer() async throws {
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        var backendConfiguration = TestBackend.configuration()
        backendConfiguration.logger = quiet
        try await TestBackend.with(configuration: backendConfiguration) { backend in
            // Patient: the whole suite shares two cores; what is tested is the missing answer, not a time-out.
            var configuration = AccountClient.Configuration(baseURL: backend.running.baseURL)
            configuration.requestTimeout = .seconds(30)
            configuration.connectTimeout = .seconds(30)
            let client = AccountClient(configuration: configuration, sessionStore: nil, logger: quiet)
            let performer = ClientPerformer(client: client, cache: nil)
            do {
                try await client.adminSignIn()
                let fault = #"{"endpoints":[{"path":"/me/auth-methods","kind":"offline"}]}"#
                let faults = try await backend.send(.POST, "/_admin/faults", raw: Data(fault.utf8))
                #expect(faults.status == 200)
                let result = await performer.perform(AnyRequest(SwitchScenario(name: "apple-only")), now: start)
                let switched = try #require(try result.get().value as? ScenarioSwitched)
                #expect(switched.dataUnanswered)
                #expect(switched.signedIn == nil)
                #expect(switched.epoch == 2)
                let admin = try await backend.get("/_admin/state").decode(AdminState.self)
                #expect(admin.scenario == "apple-only")
                #expect(await client.isSignedIn)
            } catch {
                await client.shutdown()
                throw error
            }
            await client.shutdown()
        }
    }
}
