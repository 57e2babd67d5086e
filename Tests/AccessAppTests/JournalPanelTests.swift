import AccessAPI
import AccessAppTesting
import AccessCore
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
        let harness = ReducerHarness(state, exhaustivity: .off)
        let effects = harness.send(.input(.key(.function(3))))
        #expect(effects == [.request(LoadJournal(), id: 1), .request(Endpoint.AdminJournal(), id: 2)])
        harness.send(.reply([sendCode, outboxLoad], to: RequestID(1)))
        let server = JournalEntry(
            id: 41, requestId: "ab-7", at: start, method: "POST", path: sendCode.path, status: 429, ms: 2,
            rule: "otp.resend_window")
        harness.send(.reply([server], to: RequestID(2)))
        return harness.state
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
        // The backend is offline from the start (the app's list needs no backend).
        var state = AppState(now: start)
        state.isOffline = true
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.function(3))))
        harness.send(.reply([sendCode], to: RequestID(1)))
        #expect(render(harness.state, size: Size(cols: 100, rows: 20)).text().contains("429  12 ms  rate_limited"))
        // The backend is offline: the list stays, without rules, and the app is not told it is online.
        harness.send(.failure(.offline(reason: "refused"), to: RequestID(2)))
        #expect(panel(harness.state)?.rows.count == 1)
        #expect(harness.state.isOffline)
    }

    @Test func aJournalWithoutTheReferenceBackendAsksOnlyTheApp() {
        let harness = ReducerHarness(
            AppState(now: start, options: AppOptions(hasReferenceBackend: false)), exhaustivity: .off)
        #expect(harness.send(.input(.key(.function(3)))) == [.request(LoadJournal(), id: 1)])
    }

    @Test func aShowsTheAdminCallsToo() {
        let harness = ReducerHarness(opened(), exhaustivity: .off)
        harness.send(.input(.key(.character("a"))))
        #expect(render(harness.state, size: Size(cols: 100, rows: 20)).text().contains("GET /_admin/outbox"))
    }

    @Test func enterShowsTheCallWholeAndEscGoesBackToTheList() {
        let harness = ReducerHarness(opened(), exhaustivity: .off)
        harness.send(.input(.key(.enter)))
        let text = render(harness.state, size: Size(cols: 100, rows: 30)).text()
        #expect(text.contains("Request ID ab-7"))
        #expect(text.contains("Rule otp.resend_window"))
        #expect(text.contains("Authorization: [redacted]"))
        #expect(text.contains(#""phone": "+995511999999","#))
        harness.send(.input(.key(.escape)))
        #expect(panel(harness.state)?.showsDetail == false)
        harness.send(.input(.key(.escape)))
        #expect(harness.state.overlay == nil)
    }

    @Test func cCopiesTheCallAsCurl() {
        let harness = ReducerHarness(opened(), exhaustivity: .off)
        let effects = harness.send(.input(.key(.character("c"))))
        let curl =
            "curl -X POST 'http://127.0.0.1:8080/auth/phone/request-otp' -H 'Authorization: [redacted]'"
            + " -H 'Content-Type: application/json' -H 'X-Request-ID: ab-7'"
            + #" --data-raw '{"phone":"+995511999999","purpose":"change_phone"}'"#
        #expect(effects.first == .copy(curl))
        #expect(harness.state.toast?.message == "Copied as curl (secrets redacted)")
    }

    @Test func fOpensThePaletteOnTheFaultsOfThatEndpoint() {
        let harness = ReducerHarness(opened(), exhaustivity: .off)
        harness.send(.input(.key(.character("f"))))
        guard let palette = harness.state.overlay?.as(CommandPalette.self) else {
            Issue.record("no palette")
            return
        }
        #expect(palette.selected?.title.hasSuffix("on /auth/phone/request-otp") == true)
        #expect(palette.selected?.title.hasPrefix("Fault:") == true)
    }

    /// Issue 48 item 19: the bodies of the call whole are indented JSON, one member a line, however the wire had
    /// them (compact, or pretty-printed), and the indentation survives the panel's wrapping. Still redacted.
    @Test func theCallWholeShowsItsJSONBodiesIndented() throws {
        var pretty = sendCode
        pretty.requestBody = "{\n  \"code\" : \"[redacted]\",\n  \"request_id\" : \"otp_1\"\n}"
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.function(3))))
        harness.send(.reply([pretty], to: RequestID(1)))
        harness.send(.input(.key(.enter)))
        let lines = render(harness.state, size: Size(cols: 100, rows: 40)).textLines()
        func column(_ text: String) throws -> Int {
            let line = try #require(lines.first { $0.contains(text) }, "no line holds \(text)")
            return line.distance(from: line.startIndex, to: try #require(line.range(of: text)).lowerBound)
        }
        // The request body, as it was sent pretty-printed, reads as one member a line.
        let requestOpen = try #require(lines.firstIndex { $0.contains("Request body") }) + 1
        let brace = try #require(lines[requestOpen].firstIndex(of: "{"))
        let braceColumn = lines[requestOpen].distance(from: lines[requestOpen].startIndex, to: brace)
        #expect(try column(#""code": "[redacted]","#) == braceColumn + 2)
        #expect(try column(#""request_id": "otp_1""#) == braceColumn + 2)
        // The answer came compact: re-indented, each level two columns further in.
        #expect(try column(#""error": {"#) == braceColumn + 2)
        #expect(try column(#""code": "rate_limited""#) == braceColumn + 4)
        #expect(!lines.contains { $0.contains(#"{"error":{"#) })
    }

    @Test func indentingKeepsStringsAsTheyAreAndACutBodyReadable() {
        #expect(
            JournalPanel.indentedJSON(#"{"a":[1,{"b":"x, {y}: \"z\""}],"c":{},"d":[]}"#)
                == """
                {
                  "a": [
                    1,
                    {
                      "b": "x, {y}: \\"z\\""
                    }
                  ],
                  "c": {},
                  "d": []
                }
                """)
        // A body cut at the journal's limit is no longer JSON: indented as far as it goes.
        #expect(JournalPanel.indentedJSON(#"{"a":{"b":"cut her"#) == "{\n  \"a\": {\n    \"b\": \"cut her")
        // Not JSON at all (the journal's "[12 bytes, not JSON]"): as it is.
        #expect(JournalPanel.indentedJSON("[12 bytes, not JSON]") == "[12 bytes, not JSON]")
        // A long line wraps under its own indentation.
        #expect(JournalPanel.wrapped("    abc def ghi", width: 11) == ["    abc def", "    ghi"])
    }

    /// Issue 48 item 19: a `503 x1` on a GET was asked again by the client and never seen; its row says it was
    /// retried and by which request, and the retry's row which one it repeats.
    @Test func aRetriedCallSaysByWhichRequest() {
        let failed = RequestRecord(
            requestID: "ab-12", method: "GET", path: "/me/auth-methods", status: 503, milliseconds: 3,
            errorCode: "server", retriedBy: "ab-13")
        let retry = RequestRecord(
            requestID: "ab-13", method: "GET", path: "/me/auth-methods", status: 200, milliseconds: 4, errorCode: nil,
            retryOf: "ab-12")
        let faulted = JournalEntry(
            id: 3, requestId: "ab-12", at: start, method: "GET", path: failed.path, status: 503, ms: 1,
            rule: "fault.unavailable")
        var state = AppState(now: start)
        state.size = Size(cols: 100, rows: 20)
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.function(3))))
        harness.send(.reply([failed, retry], to: RequestID(1)))
        harness.send(.reply([faulted], to: RequestID(2)))
        let text = render(harness.state, size: Size(cols: 100, rows: 20)).text()
        #expect(text.contains("503, retried as #13  3 ms  fault.unavailable"))
        #expect(text.contains("200, retry of #12  4 ms"))
        // At 80 columns the rule is cut first; the retry stays.
        var narrow = harness.state
        narrow.size = .standard
        #expect(render(narrow, size: .standard).text().contains("503, retried as #13"))
        let detail = JournalPanel.detailLines(.init(record: failed, server: faulted), baseURL: nil).map(\.0)
        #expect(detail.contains { $0.contains("Retried: the client asked again as request ab-13") })
        // `/retried` finds them.
        var panel = JournalPanel()
        panel.load(records: [failed, retry])
        panel.filter = ListFilter(query: "retried")
        #expect(panel.visibleRows.map(\.record.requestID) == ["ab-12"])
    }

    /// Issue 48 item 19: a call that timed out says so in its row, whatever rule the backend gave it when it
    /// answered too late; not "no answer" as a refused connection does.
    @Test func aTimedOutCallSaysSoInItsRow() {
        let timedOut = RequestRecord(
            requestID: "ab-15", method: "GET", path: "/me/auth-methods", status: nil, milliseconds: 1003,
            errorCode: "timed_out")
        let late = JournalEntry(
            id: 9, requestId: "ab-15", at: start, method: "GET", path: timedOut.path, status: 200, ms: 1500, rule: "ok")
        let row = JournalPanel.JournalRow(record: timedOut, server: late)
        #expect(JournalPanel.summary(row).outcome == "timed out  1003 ms  ok")
        let detail = JournalPanel.detailLines(row, baseURL: nil).map(\.0)
        #expect(detail.contains { $0.contains("Status timed out · 1003 ms") })
        var panel = JournalPanel()
        panel.load(records: [timedOut])
        panel.filter = ListFilter(query: "timed out")
        #expect(panel.visibleRows.count == 1)
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

/// The journal is a long list: Home/End (g/G), PgUp/PgDn, where the selection stands, and `/` to filter.
@Suite struct JournalLongListTests {
    /// Forty calls, newest first: GET /me/auth-methods, POST /auth/phone/request-otp by turns.
    static func opened(calls: Int = 40) -> AppState {
        var state = AppState(now: start)
        state.size = Size(cols: 100, rows: 20)
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.function(3))))
        let records = (0..<calls).map { index in
            RequestRecord(
                requestID: "id-\(index)", method: index.isMultiple(of: 2) ? "POST" : "GET",
                path: index.isMultiple(of: 2) ? "/auth/phone/request-otp" : "/me/auth-methods",
                status: index.isMultiple(of: 2) ? 429 : 200, milliseconds: 3, errorCode: nil)
        }
        harness.send(.reply(records, to: RequestID(1)))
        return harness.state
    }

    static func press(_ keys: Key..., in harness: ReducerHarness) {
        for key in keys { harness.send(.input(.key(key))) }
    }

    @Test func endsAndPagesMoveTheSelectionAndTheBorderSaysWhere() throws {
        let state = Self.opened()
        #expect(render(state, size: state.size!).text().contains("1 of 40"))
        let harness = ReducerHarness(state, exhaustivity: .off)
        Self.press(.end, in: harness)
        #expect(panel(harness.state)?.selection == 39)
        #expect(render(harness.state, size: harness.state.size!).text().contains("40 of 40"))
        Self.press(.character("g"), in: harness)
        #expect(panel(harness.state)?.selection == 0)
        Self.press(.character("G"), .home, .pageDown, in: harness)
        let page = try #require(panel(harness.state)?.selection)
        #expect(page > 1 && page < 39)
        Self.press(.pageUp, in: harness)
        #expect(panel(harness.state)?.selection == 0)
    }

    @Test func slashFiltersByPathStatusOrRuleAndEscClearsIt() {
        let harness = ReducerHarness(Self.opened(), exhaustivity: .off)
        Self.press(.character("/"), in: harness)
        #expect(harness.state.overlay?.base.takesText == true)
        for character in "429" { Self.press(.character(character), in: harness) }
        let filtered = panel(harness.state)?.visibleRows ?? []
        #expect(filtered.count == 20 && filtered.allSatisfy { $0.record.status == 429 })
        // While typing, q is text, not Close.
        Self.press(.character("q"), in: harness)
        #expect(harness.state.overlay != nil && panel(harness.state)?.visibleRows.isEmpty == true)
        #expect(render(harness.state, size: harness.state.size!).text().contains("No call matches the filter."))
        Self.press(.backspace, .enter, in: harness)
        #expect(panel(harness.state)?.filter.isEditing == false && panel(harness.state)?.visibleRows.count == 20)
        Self.press(.escape, in: harness)
        #expect(panel(harness.state)?.visibleRows.count == 40)
        Self.press(.escape, in: harness)
        #expect(harness.state.overlay == nil)
    }
}

/// Issue 29 item 5: when the backend took each call, a count of what the filter keeps, and the toast of a
/// key pressed in the panel drawn over it.
@Suite struct JournalTimeTests {
    /// The backend's clock was moved three days and an hour, two minutes and five seconds past the app's
    /// start (a clock moved on another backend, or by hand, before the app followed).
    static let moved = start.addingTimeInterval(3 * 86_400 + 3725)

    static func opened(size: Size = Size(cols: 100, rows: 20)) -> AppState {
        var state = AppState(now: start)
        state.size = size
        state.options.backendURL = "http://127.0.0.1:8080"
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.function(3))))
        let offline = RequestRecord(
            requestID: "ab-9", method: "GET", path: "/me/profile", status: nil, milliseconds: 5, errorCode: "offline")
        harness.send(.reply([sendCode, offline], to: RequestID(1)))
        let server = JournalEntry(
            id: 41, requestId: "ab-7", at: moved, method: "POST", path: sendCode.path, status: 429, ms: 2,
            rule: "otp.resend_window")
        harness.send(.reply([server], to: RequestID(2)))
        return harness.state
    }

    @Test func eachCallShowsTheBackendsTimeOfItsEntryNotTheApps() {
        let text = render(Self.opened(), size: Size(cols: 100, rows: 20)).text()
        // 2027-01-15T08:00:00Z moved by 3 days 1:02:05: the backend's 09:02:05, not the app's 08:00:00.
        #expect(text.contains("09:02:05  POST /auth/phone/request-otp"))
        #expect(!text.contains("08:00:00"))
        // The backend kept no entry for a call it never answered: no time is made up.
        #expect(text.contains("--:--:--  GET /me/profile"))
    }

    @Test func theCallWholeGivesTheBackendsDateAndTime() {
        let harness = ReducerHarness(Self.opened(), exhaustivity: .off)
        harness.send(.input(.key(.down)))
        harness.send(.input(.key(.enter)))
        let text = render(harness.state, size: Size(cols: 100, rows: 30)).text()
        #expect(text.contains("Backend time 2027-01-18T09:02:05Z (its clock, UTC)"))
    }

    @Test func theFilterMatchesTheTimeAndSaysHowManyOfTheCallsItKeeps() {
        let harness = ReducerHarness(Self.opened(), exhaustivity: .off)
        for key: Key in [.character("/"), .character("0"), .character("9"), .character(":"), .character("0")] {
            harness.send(.input(.key(key)))
        }
        let text = render(harness.state, size: Size(cols: 100, rows: 20)).text()
        #expect(text.contains("1 of 2 match"))
        #expect(text.contains("POST /auth/phone/request-otp"))
        #expect(!text.contains("GET /me/profile"))
        harness.send(.input(.key(.escape)))
        #expect(!render(harness.state, size: Size(cols: 100, rows: 20)).text().contains("match"))
    }

    @Test func copyingShowsItsToastOverThePanel() {
        let harness = ReducerHarness(Self.opened(), exhaustivity: .off)
        harness.send(.input(.key(.character("c"))))
        #expect(harness.state.overlay?.as(JournalPanel.self) != nil)
        let text = render(harness.state, size: Size(cols: 100, rows: 20)).text()
        #expect(text.contains("Copied as curl (secrets redacted)"))
    }
}

/// Issue 51 item 1 in the app: F3's `/` and the palette take the backend journal's filters as `name:value` words;
/// issue 49 item 5: each row and each call's detail say whom it acted for, and the detail the rule in plain words.
@Suite struct JournalFilterWordsTests {
    static let calls: [(RequestRecord, JournalEntry)] = [
        (sendCode, entry(41, "ab-7", "POST", sendCode.path, 429, "rate_limit.resend_window", user: "usr_a", at: 0)),
        (
            RequestRecord(
                requestID: "ab-10", method: "GET", path: "/me/auth-methods", status: 200, milliseconds: 4,
                errorCode: nil),
            entry(42, "ab-10", "GET", "/me/auth-methods", 200, "ok", user: "usr_a", at: 60)
        ),
        (
            RequestRecord(
                requestID: "ab-11", method: "POST", path: "/auth/phone/verify-otp", status: 200, milliseconds: 9,
                errorCode: nil),
            entry(43, "ab-11", "POST", "/auth/phone/verify-otp", 200, "ok", user: "usr_b", at: 120)
        ),
    ]

    static func entry(
        _ id: Int, _ requestID: String, _ method: String, _ path: String, _ status: Int, _ rule: String,
        user: String, at seconds: TimeInterval
    ) -> JournalEntry {
        JournalEntry(
            id: id, requestId: requestID, at: start + seconds, method: method, path: path, status: status, ms: 1,
            rule: rule, user: user)
    }

    static func panel(_ words: String) -> JournalPanel {
        var panel = JournalPanel(filter: words)
        panel.load(records: calls.map(\.0), rules: calls.map(\.1))
        return panel
    }

    static func paths(_ words: String) -> [String] {
        panel(words).visibleRows.map { "\($0.record.method) \($0.record.path)" }
    }

    @Test func eachFilterKeepsWhatItNamesAndNothingElse() {
        #expect(Self.paths("").count == 3)
        #expect(Self.paths("path:/auth/phone/*") == ["POST /auth/phone/verify-otp", "POST /auth/phone/request-otp"])
        #expect(Self.paths("path:/auth/phone").isEmpty)
        #expect(Self.paths("path:/me/auth-methods") == ["GET /me/auth-methods"])
        #expect(Self.paths("status:429 path:/auth/phone/*") == ["POST /auth/phone/request-otp"])
        #expect(Self.paths("status:2xx") == ["POST /auth/phone/verify-otp", "GET /me/auth-methods"])
        #expect(Self.paths("status:404").isEmpty)
        #expect(Self.paths("method:get") == ["GET /me/auth-methods"])
        #expect(Self.paths("method:DELETE").isEmpty)
        #expect(Self.paths("rule:rate_limit.resend_window") == ["POST /auth/phone/request-otp"])
        #expect(Self.paths("rule:rate_limit.resend_window status:200").isEmpty)
        #expect(Self.paths("user:usr_b") == ["POST /auth/phone/verify-otp"])
        #expect(Self.paths("user:usr_c").isEmpty)
        let style = Date.ISO8601FormatStyle()
        #expect(Self.paths("since:\((start + 60).formatted(style))").count == 2)
        #expect(Self.paths("until:\((start + 59).formatted(style))") == ["POST /auth/phone/request-otp"])
        // The other words still match as before, beside the filters.
        #expect(Self.paths("status:200 verify") == ["POST /auth/phone/verify-otp"])
    }

    @Test func aWordThatDoesNotReadSaysWhyAndKeepsNothing() {
        var state = AppState(now: start)
        state.overlay = .journal(Self.panel("status:abc"))
        #expect(Self.paths("status:abc").isEmpty)
        let text = render(state, size: Size(cols: 100, rows: 20)).text()
        #expect(text.contains("status: a code like 429 or a class like 4xx."))
        #expect(Self.paths("rule:otp.nope").isEmpty)
    }

    @Test func eachRowAndTheDetailSayWhomTheCallActedForAndTheRuleInWords() {
        var state = AppState(now: start)
        var panel = Self.panel("")
        state.overlay = .journal(panel)
        let list = render(state, size: Size(cols: 120, rows: 20)).text()
        #expect(list.contains("rate_limit.resend_window  usr_a"))
        #expect(list.contains("ok  usr_b"))
        panel.selection = 2
        panel.showsDetail = true
        state.overlay = .journal(panel)
        let detail = render(state, size: Size(cols: 120, rows: 30)).text()
        #expect(detail.contains("Rule rate_limit.resend_window"))
        #expect(detail.contains(Rule.rateLimitResendWindow.summary))
        #expect(detail.contains("For user usr_a"))
    }

    @Test func thePalettesJournalWordsOpenF3OnThem() {
        let command = TypedCommand.journal.command(for: "journal status:429 path:/auth/phone/*")
        #expect(command?.action == .showJournal(filter: "status:429 path:/auth/phone/*"))
        #expect(TypedCommand.journal.command(for: "journal status:abc")?.action == PaletteAction.none)
        var state = AppState(now: start)
        _ = runPaletteAction(.showJournal(filter: "status:429 path:/auth/phone/*"), in: &state)
        let opened = state.overlay?.as(JournalPanel.self)
        #expect(opened?.filter.query == "status:429 path:/auth/phone/*")
    }
}
