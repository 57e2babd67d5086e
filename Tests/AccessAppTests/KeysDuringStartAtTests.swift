import AccessAPI
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 51 item 4: keys typed before `--start-at`'s walk lands are kept and act on the screen it lands on, as
/// the starting screen keeps keys while the backend starts; none acts on the screen the walk replaces.
@Suite struct KeysDuringStartAtTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func settings() -> AppState {
        var state = AppState(root: SettingsScreen(), now: start, options: AppOptions(hasReferenceBackend: true))
        _ = reduce(&state, .input(.resize(.standard)))
        return state
    }

    /// Where the hub's road ends: Settings, then Account access with the backend's methods.
    var hub: Arrival { Arrival([SettingsScreen(), HubScreen()], methods: SampleData.everyMethod) }

    func walkID(_ effects: [Effect]) throws -> RequestID {
        let ids = effects.compactMap { effect -> RequestID? in
            guard case .request(let request, let id) = effect, request.base is StartAt else { return nil }
            return id
        }
        return try #require(ids.first)
    }

    @Test func aKeyTypedDuringTheWalkActsOnTheLandedScreenNotOnTheOneItReplaces() throws {
        var state = settings()
        let walk = try walkID(reduce(&state, .startAt("hub:default")))
        // Esc on Settings, the root, does nothing; held, it waits for the hub the walk lands on.
        #expect(reduce(&state, .input(.key(.escape))).isEmpty)
        #expect(state.heldForWalk == [.key(.escape)])
        _ = reduce(&state, .response(walk, .success(Answer(hub))))
        // The walk landed on Account access, and Esc went back from it: it acted on the landed screen.
        #expect(state.stack.map(\.base.id) == ["settings"])
        #expect(state.methods == SampleData.everyMethod)
        #expect(state.heldForWalk == nil)
    }

    @Test func aKeyTypedDuringTheWalkDoesNotActOnTheScreenItReplaces() throws {
        var state = settings()
        _ = try walkID(reduce(&state, .startAt("hub:default")))
        // Enter on Settings would open Account access and fetch its methods: held, it does neither.
        #expect(reduce(&state, .input(.key(.enter))).isEmpty)
        #expect(state.stack.map(\.base.id) == ["settings"])
    }

    @Test func aKeyTypedDuringAWalkTheBackendRefusedActsWhereTheAppStands() throws {
        var state = settings()
        let walk = try walkID(reduce(&state, .startAt("hub:default")))
        _ = reduce(&state, .input(.key(.enter)))
        #expect(state.stack.count == 1)
        let refused = APIError.server(status: 0, code: "signed_out", message: "signed out")
        let effects = reduce(&state, .response(walk, .failure(refused)))
        // The walk did not land: the key acts on Settings after all, once, opening Account access.
        #expect(state.top.base.id == "hub")
        #expect(effects.contains { if case .request = $0 { true } else { false } })
        #expect(state.heldForWalk == nil)
    }

    /// The first screen while the embedded backend starts, for `--start-at`: it keeps keys without acting on them,
    /// as the walk that follows will replace it.
    @Test func theStartingScreenKeepsKeysForTheWalkWithoutActingOnThem() {
        var state = settings()
        StartAt.holdKeys(in: &state)
        var starting = StartingScreen(state)
        starting.take(.key(.enter))
        #expect(starting.state.top.base.id == "settings")
        #expect(starting.pending == [.key(.enter)])
    }

    @Test func keysPastTheLimitAreNotKept() throws {
        var state = settings()
        _ = try walkID(reduce(&state, .startAt("hub:default")))
        for _ in 0..<(StartingScreen.pendingLimit + 3) { _ = reduce(&state, .input(.key(.down))) }
        #expect(state.heldForWalk?.count == StartingScreen.pendingLimit)
    }

    @Test func ctrlCStillQuitsDuringTheWalk() throws {
        var state = settings()
        _ = try walkID(reduce(&state, .startAt("hub:default")))
        #expect(reduce(&state, .input(.key(.control("c")))) == [.quit])
    }
}
