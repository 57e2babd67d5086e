import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

private let start = Date(timeIntervalSince1970: 1_800_000_000)

private func palette(_ state: AppState) -> CommandPalette? { state.overlay?.as(CommandPalette.self) }

private func type(_ text: String, into state: inout AppState) {
    for character in text { _ = reduce(&state, .input(.key(.character(character)))) }
}

private let worlds = [
    WorldSummary(name: "default", open: true, kept: false, scenario: "default", epoch: 1, idleSeconds: 0),
    WorldSummary(name: "alice", open: true, kept: false, scenario: "phone-only", epoch: 1, idleSeconds: 5),
]

/// The state of an app on a reference backend at `url`, the palette open, its scenarios (#1) and worlds (#2)
/// asked.
private func openedPalette(url: String = "http://127.0.0.1:8080") -> AppState {
    var state = AppState(now: start)
    state.options.backendURL = url
    let effects = reduce(&state, .input(.key(.control("p"))))
    #expect(effects == [.request(LoadScenarios(), id: 1), .request(LoadWorlds(), id: 2)])
    return state
}

/// Issue 33: the palette's "Switch world" and "New world from scenario".
@Suite struct WorldSwitchTests {
    @Test func aBackendThatServesNoWorldsGetsNoWorldEntries() {
        var state = openedPalette()
        _ = reduce(&state, .failure(.server(status: 404, code: "not_found", message: "No route."), to: RequestID(2)))
        let titles = palette(state)?.commands.map(\.title) ?? []
        #expect(!titles.contains { $0.hasPrefix("Switch world") || $0.hasPrefix("New world") })
    }

    @Test func theWorldsListedArePickedToSwitch() {
        var state = openedPalette()
        _ = reduce(&state, .reply(worlds, to: RequestID(2)))
        let titles = palette(state)?.commands.map(\.title) ?? []
        #expect(titles.contains("Switch world: default (current)"))
        #expect(titles.contains("Switch world: alice"))
        #expect(titles.contains("New world from scenario…"))
        type("switch world alice", into: &state)
        #expect(palette(state)?.selected?.action == .switchWorld("alice"))
        let effects = reduce(&state, .input(.key(.enter)))
        #expect(effects == [.request(EnterWorld(name: "alice"), id: 3)])
        #expect(state.console.switching == "world alice")
        #expect(StatusStrip.parts(state).first == "Switching to world alice\u{2026}")
        // The old world's screens get no more input.
        let before = state.stack
        _ = reduce(&state, .input(.key(.down)))
        #expect(state.stack == before)

        let methods = SampleData.everyMethod
        _ = reduce(
            &state,
            .reply(WorldEntered(name: "alice", signedIn: QASignedIn(methods: methods, profile: nil)), to: RequestID(3)))
        #expect(state.console.switching == nil)
        #expect(state.options.world == "alice")
        #expect(state.options.backendURL == "http://127.0.0.1:8080/w/alice")
        #expect(state.stack.map(\.id) == ["settings"])
        #expect(state.methods == methods)
        #expect(state.toast?.message == "World: alice")
        #expect(StatusStrip.parts(state).contains("world alice"))
        // The new world's epoch is news to nobody: it is learnt at the next look, which goes out now.
        #expect(state.console.epoch == nil)
        #expect(state.pending.values.contains { $0.call.name == "adminState" })
    }

    @Test func theDefaultWorldIsTheBareBaseURL() {
        var state = AppState(now: start)
        state.options.backendURL = "http://127.0.0.1:8080/w/alice"
        state.options.world = "alice"
        _ = runPaletteAction(.switchWorld(nil), in: &state)
        _ = reduce(&state, .reply(WorldEntered(name: nil, signedIn: nil), to: RequestID(1)))
        #expect(state.options.world == nil)
        #expect(state.options.backendURL == "http://127.0.0.1:8080")
        #expect(state.stack.map(\.id) == ["welcome"])
        #expect(state.toast?.message == "World: default")
    }

    @Test func aNewWorldsNameIsCheckedAsTyped() {
        var state = openedPalette()
        _ = reduce(&state, .reply(worlds, to: RequestID(2)))
        type("world Bob no-phone", into: &state)
        #expect(palette(state)?.selected?.title.hasPrefix("World name 'Bob': A world's name is lower-case") == true)
        #expect(reduce(&state, .input(.key(.enter))) == [])
        #expect(palette(state) != nil)
    }

    @Test func aNewWorldIsMadeFromTheScenarioThenEntered() {
        var state = openedPalette()
        _ = reduce(&state, .reply(worlds, to: RequestID(2)))
        type("world bob no-phone", into: &state)
        #expect(palette(state)?.selected?.title == "New world bob from scenario no-phone")
        let effects = reduce(&state, .input(.key(.enter)))
        #expect(effects == [.request(EnterWorld(name: "bob", newFrom: "no-phone"), id: 3)])
        _ = reduce(&state, .reply(WorldEntered(name: "bob", signedIn: nil), to: RequestID(3)))
        #expect(state.options.world == "bob")
        #expect(state.toast?.message == "World: bob")
        #expect(StatusStrip.parts(state).contains("world bob"))
    }

    @Test func aRefusedNewWorldIsShownInThePaletteWithWhatWasTyped() {
        var state = openedPalette()
        _ = reduce(&state, .reply(worlds, to: RequestID(2)))
        state.stack.append(AnyScreen(HubScreen()))
        type("world alice no-phone", into: &state)
        _ = reduce(&state, .input(.key(.enter)))
        let refused = APIError.server(status: 409, code: "world_exists", message: "World alice exists already.")
        _ = reduce(&state, .failure(refused, to: RequestID(3)))
        #expect(state.console.switching == nil)
        #expect(state.options.world == nil)
        #expect(state.stack.count == 2)
        #expect(palette(state)?.query == "world alice no-phone")
        #expect(palette(state)?.selected?.title == "World alice not made: World alice exists already.")
        // Typing again takes the notice away; the command is there as typed.
        type("x", into: &state)
        #expect(palette(state)?.selected?.title == "New world alice from scenario no-phonex")
    }
}
