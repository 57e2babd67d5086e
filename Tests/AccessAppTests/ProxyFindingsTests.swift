import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

private let start = Date(timeIntervalSince1970: 1_800_000_000)

/// Two calls through `accessdeck proxy`: exchange 4 answered a status the contract does not list, exchange 5 is clean.
private let broken = RequestRecord(
    requestID: "ab-4", method: "GET", path: "/health", status: 201, milliseconds: 2, errorCode: nil, proxyExchange: 4)
private let clean = RequestRecord(
    requestID: "ab-5", method: "GET", path: "/me/auth-methods", status: 200, milliseconds: 3, errorCode: nil,
    proxyExchange: 5)

private let findings = ProxyFindingsDigest(
    count: 2, byExchange: [4: ["contract: health does not list status 201.", "otp.expired broken (#3, #4)"]])

/// Issue 52 item 4: pointed at the proxy, the app counts its findings in the status strip and marks each F3 row
/// whose exchange has one.
@Suite struct ProxyFindingsTests {
    /// The first look, as the executable starts it: one call and the next look on the slow timer.
    private func watched(_ reply: ProxyFindingsDigest?) -> ReducerHarness {
        var state = AppState(now: start)
        state.options.backendIsEmbedded = false
        state.options.backendURL = "http://127.0.0.1:9000"
        let harness = ReducerHarness(state, exhaustivity: .off)
        let effects = harness.send(.watchProxy)
        #expect(
            effects == [
                .request(LoadProxyFindings(), id: 1),
                .after(seconds: ProxyWatch.interval, action: .watchProxy, id: .proxyWatch),
            ])
        harness.send(.reply(reply, to: RequestID(1)))
        return harness
    }

    @Test func theStripCountsTheProxysFindings() {
        let harness = watched(findings)
        #expect(StatusStrip.text(harness.state, width: 78) == "backend http://127.0.0.1:9000 · proxy: 2 findings")
        // The next look while none is under way asks again, and a new count replaces the old.
        harness.send(.watchProxy)
        harness.send(.reply(ProxyFindingsDigest?.some(.init(count: 1, byExchange: [4: ["x"]])), to: RequestID(2)))
        #expect(StatusStrip.text(harness.state, width: 78)?.hasSuffix("proxy: 1 finding") == true)
    }

    @Test func aBackendThatIsNotTheProxyIsNotAskedAgain() {
        let harness = watched(nil)
        #expect(harness.state.console.proxy == .notAProxy)
        #expect(harness.send(.watchProxy) == [])
        #expect(StatusStrip.text(harness.state, width: 78) == "backend http://127.0.0.1:9000")
    }

    @Test func noAnswerKeepsLookingAndShowsNoCount() {
        var state = AppState(now: start)
        state.options.backendIsEmbedded = false
        state.options.backendURL = "http://127.0.0.1:9000"
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.watchProxy)
        harness.send(.failure(.offline(reason: "refused"), to: RequestID(1)))
        #expect(harness.state.console.proxy == .unknown)
        #expect(harness.send(.watchProxy).contains(.request(LoadProxyFindings(), id: 2)))
    }

    @Test func f3MarksTheRowWhoseExchangeHasAFindingAndItsDetailSaysIt() {
        let harness = watched(findings)
        harness.send(.input(.key(.function(3))))
        harness.send(.reply([clean, broken], to: RequestID(2)))
        let lines = render(harness.state, size: Size(cols: 100, rows: 20)).textLines()
        let brokenRow = lines.first { $0.contains("/health") } ?? ""
        let cleanRow = lines.first { $0.contains("/me/auth-methods") } ?? ""
        #expect(brokenRow.contains("! GET /health"))
        #expect(!cleanRow.contains("!"))
        // The newest first: the broken call is the first row; Enter shows its findings.
        harness.send(.input(.key(.enter)))
        let detail = render(harness.state, size: Size(cols: 100, rows: 30)).text()
        #expect(detail.contains("Proxy exchange #4: 2 findings"))
        #expect(detail.contains("contract: health does not list status 201."))
        #expect(detail.contains("otp.expired broken (#3, #4)"))
    }

    @Test func theProxysJSONReadsAsItsCountAndTheExchangesItCites() throws {
        let json = """
            {"exchanges":5,"contract_breaks":[{"kind":"unlisted_status","operation":"health",
            "message":"health does not list status 201.","exchange":{"number":4,"method":"GET","target":"/health",
            "status":201}}],"rules":[{"rule":"otp.expired","summary":"…","state":"broken","kept":0,
            "breaks":[[3,4]]},{"rule":"otp.attempts","summary":"…","state":"kept","kept":2,"breaks":[]}]}
            """
        let digest = try ProxyFindingsDigest.decode(Data(json.utf8))
        // A rule break marks each exchange that proves it, the breaking one and those before it.
        #expect(digest.count == 2)
        #expect(digest.byExchange[4] == findings.byExchange[4])
        #expect(digest.byExchange[3] == ["otp.expired broken (#3, #4)"])
        #expect(digest.byExchange.count == 2)
    }
}
