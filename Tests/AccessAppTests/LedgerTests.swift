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
        var state = SampleData.state([], now: now)
        _ = reduce(&state, .input(.key(.character("r"))))
        return state
    }

    @Test func idsAreMintedInOrderAndNoteTheirOwner() {
        let state = Self.hubWaiting()
        #expect(state.pending == [RequestID(1): state.waiting(.screen(depth: 1), LoadAuthMethods.self)])
        #expect(state.nextRequestID == 2)
    }

    static let unknown = RequestID(99)

    @Test func anOfflineReplyNobodyWaitsForLeavesTheBannerDown() {
        var state = Self.hubWaiting()
        let before = state
        #expect(reduce(&state, .failure(.offline(reason: "refused"), to: Self.unknown)) == [])
        #expect(state == before)
        #expect(state.banner == nil)
    }

    @Test func anAnswerNobodyWaitsForLeavesTheOfflineBannerUp() {
        var state = Self.hubWaiting()
        state.isOffline = true
        state.banner = .offline
        let before = state
        #expect(reduce(&state, .reply(SampleData.everyMethod, to: Self.unknown)) == [])
        #expect(state == before)
    }

    @Test func aLimitedAccessRefusalNobodyWaitsForRaisesNoSheet() {
        var state = Self.hubWaiting()
        let before = state
        let refusal = APIError.server(status: 403, code: ErrorCode.limitedAccess.rawValue, message: "Limited")
        #expect(reduce(&state, .failure(refusal, to: Self.unknown)) == [])
        #expect(state == before)
    }

    @Test func aSignedOutReplyNobodyWaitsForKeepsTheSession() {
        var state = Self.hubWaiting()
        let before = state
        #expect(reduce(&state, .failure(.signedOut, to: Self.unknown)) == [])
        #expect(state == before)
    }

    /// The same replies to the screen that asked do have their effects: the tests above are not vacuous.
    @Test func theSameRepliesToTheAskerAct() {
        var offline = Self.hubWaiting()
        _ = reduce(&offline, .failure(.offline(reason: "refused"), to: RequestID(1)))
        #expect(offline.banner == .offline)
        var signedOut = Self.hubWaiting()
        #expect(reduce(&signedOut, .failure(.signedOut, to: RequestID(1))).contains(.signOutLocally))
        var limited = Self.hubWaiting()
        let refusal = APIError.server(status: 403, code: ErrorCode.limitedAccess.rawValue, message: "Limited")
        _ = reduce(&limited, .failure(refusal, to: RequestID(1)))
        #expect(limited.overlay == .sheet(.limitedAccess))
    }

    @Test func aScreenThatLeftTakesWhatItWaitedForWithIt() {
        var state = Self.hubWaiting()
        _ = reduce(&state, .input(.key(.escape)))
        #expect(state.pending.isEmpty)
        let before = state
        #expect(reduce(&state, .failure(.offline(reason: "refused"), to: RequestID(1))) == [])
        #expect(state == before)
    }

    @Test func aClosedPanelTakesWhatItWaitedForWithIt() {
        var state = SampleData.state([], now: Self.now)
        #expect(reduce(&state, .input(.key(.control("o")))) == [.request(AnyRequest(LoadOutbox()), id: RequestID(1))])
        #expect(state.pending[RequestID(1)]?.owner == .overlay)
        _ = reduce(&state, .input(.key(.escape)))
        #expect(state.overlay == nil && state.pending.isEmpty)
        let before = state
        #expect(reduce(&state, .reply([OutboxMessage](), to: RequestID(1))) == [])
        #expect(state == before)
    }

    @Test func aReplyOfAnotherTypeIsADefectNotACrash() {
        var state = Self.hubWaiting()
        _ = reduce(&state, .reply("not auth methods", to: RequestID(1)))
        #expect(state.defects.count == 1)
        #expect(state.pending.isEmpty)
    }

    /// The app's own journal says nothing of the backend: its answer leaves the offline banner up.
    @Test func readingTheJournalDoesNotSayTheBackendIsBack() {
        var state = SampleData.state([], now: Self.now)
        state.isOffline = true
        state.banner = .offline
        _ = reduce(&state, .input(.key(.function(3))))
        _ = reduce(&state, .reply([RequestRecord](), to: RequestID(1)))
        #expect(state.banner == .offline)
    }
}
