import AccessAPI
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

private let start = Date(timeIntervalSince1970: 1_800_000_000)

private let sendCode = RequestRecord(
    requestID: "ab-7", method: "POST", path: "/auth/phone/request-otp", query: nil,
    requestHeaders: [
        .init(name: "Authorization", value: "[redacted]"), .init(name: "Content-Type", value: "application/json"),
        .init(name: "X-Request-ID", value: "ab-7"),
    ],
    requestBody: #"{"phone":"+995511999999","purpose":"change_phone"}"#,
    responseBody: #"{"error":{"code":"rate_limited"}}"#, status: 429, milliseconds: 12, errorCode: "rate_limited")

private let outboxLoad = RequestRecord(
    requestID: "ab-8", method: "GET", path: "/_admin/outbox", status: 200, milliseconds: 3, errorCode: nil)

private func panel(_ state: AppState) -> JournalPanel? {
    state.overlay?.as(JournalPanel.self)
}

/// The HTTP journal panel (F3): the app's calls, newest first, with the backend's rule for each.
@Suite struct JournalPanelTests {
    private func opened() -> AppState {
        var state = AppState(now: start)
        state.options.backendURL = "http://127.0.0.1:8080"
        let effects = reduce(&state, .input(.key(.function(3))))
        #expect(effects == [.request(LoadJournal(), id: 1), .request(LoadBackendJournal(), id: 2)])
        _ = reduce(&state, .reply([sendCode, outboxLoad], to: RequestID(1)))
        let server = JournalEntry(
            id: 41, requestId: "ab-7", at: start, method: "POST", path: sendCode.path, status: 429, ms: 2,
            rule: "otp.resend_window")
        _ = reduce(&state, .reply([server], to: RequestID(2)))
        return state
    }

    @Test func f3ListsTheAppsCallsWithTheBackendsRuleAndHidesAdminCalls() {
        let state = opened()
        let text = render(state, size: Size(cols: 100, rows: 20)).text()
        #expect(text.contains("POST /auth/phone/request-otp"))
        #expect(text.contains("429  12 ms  otp.resend_window"))
        #expect(!text.contains("/_admin/outbox"))
        #expect(state.console.endpoints == ["/auth/phone/request-otp"])
    }

    @Test func theListComesFirstAndTheRulesWhenTheBackendAnswers() {
        var state = AppState(now: start)
        _ = reduce(&state, .input(.key(.function(3))))
        _ = reduce(&state, .reply([sendCode], to: RequestID(1)))
        #expect(render(state, size: Size(cols: 100, rows: 20)).text().contains("429  12 ms  rate_limited"))
        // The backend is offline: the list stays, without rules, and the app is not told it is online.
        state.isOffline = true
        _ = reduce(&state, .failure(.offline(reason: "refused"), to: RequestID(2)))
        #expect(panel(state)?.rows.count == 1)
        #expect(state.isOffline)
    }

    @Test func aJournalWithoutTheReferenceBackendAsksOnlyTheApp() {
        var state = AppState(now: start, options: AppOptions(hasReferenceBackend: false))
        #expect(reduce(&state, .input(.key(.function(3)))) == [.request(LoadJournal(), id: 1)])
    }

    @Test func aShowsTheAdminCallsToo() {
        var state = opened()
        _ = reduce(&state, .input(.key(.character("a"))))
        #expect(render(state, size: Size(cols: 100, rows: 20)).text().contains("GET /_admin/outbox"))
    }

    @Test func enterShowsTheCallWholeAndEscGoesBackToTheList() {
        var state = opened()
        _ = reduce(&state, .input(.key(.enter)))
        let text = render(state, size: Size(cols: 100, rows: 30)).text()
        #expect(text.contains("Request ID ab-7"))
        #expect(text.contains("Rule otp.resend_window"))
        #expect(text.contains("Authorization: [redacted]"))
        #expect(text.contains(#"{"phone":"+995511999999","purpose":"change_phone"}"#))
        _ = reduce(&state, .input(.key(.escape)))
        #expect(panel(state)?.showsDetail == false)
        _ = reduce(&state, .input(.key(.escape)))
        #expect(state.overlay == nil)
    }

    @Test func cCopiesTheCallAsCurl() {
        var state = opened()
        let effects = reduce(&state, .input(.key(.character("c"))))
        let curl =
            "curl -X POST 'http://127.0.0.1:8080/auth/phone/request-otp' -H 'Authorization: [redacted]'"
            + " -H 'Content-Type: application/json' -H 'X-Request-ID: ab-7'"
            + #" --data-raw '{"phone":"+995511999999","purpose":"change_phone"}'"#
        #expect(effects.first == .copy(curl))
        #expect(state.toast?.message == "Copied as curl (secrets redacted)")
    }

    @Test func fOpensThePaletteOnTheFaultsOfThatEndpoint() {
        var state = opened()
        _ = reduce(&state, .input(.key(.character("f"))))
        guard let palette = state.overlay?.as(CommandPalette.self) else {
            Issue.record("no palette")
            return
        }
        #expect(palette.selected?.title.hasSuffix("on /auth/phone/request-otp") == true)
        #expect(palette.selected?.title.hasPrefix("Fault:") == true)
    }

    @Test func aCallWithoutAnswerSaysTheBackendNeverSawIt() {
        let offline = RequestRecord(
            method: "GET", path: "/me/auth-methods", status: nil, milliseconds: 5, errorCode: "offline")
        let lines = JournalPanel.detailLines(JournalPanel.JournalRow(record: offline, server: nil), baseURL: nil)
        #expect(lines.contains { $0.0.contains("The backend never answered") })
        #expect(
            JournalPanel.summary(JournalPanel.JournalRow(record: offline, server: nil)).outcome
                == "no answer  5 ms  offline")
    }
}
