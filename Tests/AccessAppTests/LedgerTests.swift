import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// The one ledger of requests in flight (`AppState.pending`): every id is minted in one place, each has
/// an owner, and a reply nobody waits for changes nothing — none of the effects a reply can have on the
/// whole app.
@Suite struct LedgerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The hub, loading: it waits for request 1.
    static func hubWaiting() -> AppState {
        let harness = ReducerHarness(SampleData.state([], now: now), exhaustivity: .off)
        harness.send(.input(.key(.character("r"))))
        return harness.state
    }

    @Test func idsAreMintedInOrderAndNoteTheirOwner() {
        let state = Self.hubWaiting()
        #expect(state.pending == [RequestID(1): state.waiting(.screen(depth: 1), LoadAuthMethods.self)])
        #expect(state.nextRequestID == 2)
    }

    static let unknown = RequestID(99)

    // Each reply nobody waits for goes through an exhaustive harness with nothing described: no effect, and
    // the state exactly as before.

    @Test func anOfflineReplyNobodyWaitsForLeavesTheBannerDown() {
        let harness = ReducerHarness(Self.hubWaiting())
        harness.send(.failure(.offline(reason: "refused"), to: Self.unknown), effects: [])
        #expect(harness.state.banner == nil)
    }

    @Test func anAnswerNobodyWaitsForLeavesTheOfflineBannerUp() {
        var state = Self.hubWaiting()
        state.isOffline = true
        state.banner = .offline
        let harness = ReducerHarness(state)
        harness.send(.reply(SampleData.everyMethod, to: Self.unknown), effects: [])
    }

    @Test func aLimitedAccessRefusalNobodyWaitsForRaisesNoSheet() {
        let harness = ReducerHarness(Self.hubWaiting())
        let refusal = APIError.server(status: 403, code: ErrorCode.limitedAccess.rawValue, message: "Limited")
        harness.send(.failure(refusal, to: Self.unknown), effects: [])
    }

    @Test func aSignedOutReplyNobodyWaitsForKeepsTheSession() {
        let harness = ReducerHarness(Self.hubWaiting())
        harness.send(.failure(.signedOut, to: Self.unknown), effects: [])
    }

    /// The same replies to the screen that asked do have their effects: the tests above are not vacuous.
    @Test func theSameRepliesToTheAskerAct() {
        let offline = ReducerHarness(Self.hubWaiting(), exhaustivity: .off)
        offline.send(.failure(.offline(reason: "refused"), to: RequestID(1)))
        #expect(offline.state.banner == .offline)
        let signedOut = ReducerHarness(Self.hubWaiting(), exhaustivity: .off)
        #expect(signedOut.send(.failure(.signedOut, to: RequestID(1))).contains(.signOutLocally))
        let limited = ReducerHarness(Self.hubWaiting(), exhaustivity: .off)
        let refusal = APIError.server(status: 403, code: ErrorCode.limitedAccess.rawValue, message: "Limited")
        limited.send(.failure(refusal, to: RequestID(1)))
        #expect(limited.state.overlay == .sheet(.limitedAccess))
    }

    @Test func aScreenThatLeftTakesWhatItWaitedForWithIt() {
        let harness = ReducerHarness(Self.hubWaiting())
        harness.send(.input(.key(.escape))) {
            $0.stack.removeLast()
            $0.pending = [:]
        }
        #expect(harness.state.pending.isEmpty)
        harness.send(.failure(.offline(reason: "refused"), to: RequestID(1)), effects: [])
    }

    @Test func aClosedPanelTakesWhatItWaitedForWithIt() {
        let harness = ReducerHarness(SampleData.state([], now: Self.now), exhaustivity: .off)
        #expect(
            harness.send(.input(.key(.control("o")))) == [.request(AnyRequest(LoadOutbox()), id: RequestID(1))])
        #expect(harness.state.pending[RequestID(1)]?.owner == .overlay)
        harness.send(.input(.key(.escape)))
        #expect(harness.state.overlay == nil && harness.state.pending.isEmpty)
        // Exhaustive from here: the late reply changes nothing.
        let after = ReducerHarness(harness.state)
        after.send(.reply([OutboxMessage](), to: RequestID(1)), effects: [])
    }

    @Test func aReplyOfAnotherTypeIsADefectNotACrash() {
        let harness = ReducerHarness(Self.hubWaiting(), exhaustivity: .off)
        harness.send(.reply("not auth methods", to: RequestID(1)))
        #expect(harness.state.defects.count == 1)
        #expect(harness.state.pending.isEmpty)
    }

    /// The app's own journal says nothing of the backend: its answer leaves the offline banner up.
    @Test func readingTheJournalDoesNotSayTheBackendIsBack() {
        var state = SampleData.state([], now: Self.now)
        state.isOffline = true
        state.banner = .offline
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.function(3))))
        harness.send(.reply([RequestRecord](), to: RequestID(1)))
        #expect(harness.state.banner == .offline)
    }
}
