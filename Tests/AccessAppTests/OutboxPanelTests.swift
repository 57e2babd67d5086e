import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// The outbox panel: ages on the app's clock (the backend's), and a word on every code or link
/// the backend says no longer works.
@Suite struct OutboxPanelTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func message(_ id: Int, code: String, sentAt: Date, status: OutboxStatus) -> OutboxMessage {
        OutboxMessage(
            id: id, channel: "sms", to: "+995511200300", kind: "otp", purpose: "change_phone", code: code,
            link: nil, token: nil, sentAt: sentAt, status: status)
    }

    func line(_ text: String, in state: AppState) -> String? {
        render(state, size: .standard).text().split(separator: "\n").first { $0.contains(text) }.map(String.init)
    }

    @Test func agesFollowTheAppClockAndDeadCodesAreMarked() {
        let harness = ReducerHarness(SampleData.state([], now: start))
        harness.send(.input(.key(.control("o"))), effects: [.request(LoadOutbox(), id: 1)]) {
            $0.overlay = .outbox(OutboxPanel())
            $0.pending[RequestID(1)] = $0.waiting(.overlay, LoadOutbox.self)
            $0.nextRequestID = 2
        }
        let sent = [
            message(1, code: "111111", sentAt: start - 60, status: .used),
            message(2, code: "222222", sentAt: start - 10, status: .live),
        ]
        harness.send(.reply(sent, to: RequestID(1))) {
            $0.overlay = .outbox(OutboxPanel(messages: sent.reversed(), isLoading: false))
        }
        #expect(line("code 222222", in: harness.state)?.contains(" used ") == false)
        #expect(line("code 111111", in: harness.state)?.contains(" used ") == true)
        #expect(line("10 s ago", in: harness.state) != nil)

        // The backend's clock moves 31 minutes (the app's follows it): the ages move with it.
        harness.advance(by: 31 * 60)
        harness.send(.input(.key(.down))) {
            $0.overlay = .outbox(OutboxPanel(messages: sent.reversed(), selection: 1, isLoading: false))
        }
        #expect(line("31 min ago", in: harness.state) != nil)
        #expect(line("32 min ago", in: harness.state) != nil)
    }

    @Test(arguments: [
        (OutboxStatus.used, "used"), (.expired, "expired"), (.superseded, "replaced"), (.cancelled, "cancelled"),
        (.exhausted, "too many tries"),
    ])
    func aDeadCodeIsWordedAndDimmedBesideALiveOne(status: OutboxStatus, word: String) throws {
        var state = SampleData.state([], now: start)
        let messages = [
            message(2, code: "654321", sentAt: start - 5, status: .live),
            message(1, code: "123456", sentAt: start - 9, status: status),
        ]
        state.overlay = .outbox(OutboxPanel(messages: messages, isLoading: false))
        let grid = render(state, size: .standard)
        func cell(of code: String) throws -> (column: Int, row: Int) {
            let row = try #require((0..<grid.size.rows).first { grid.text(row: $0).contains("code \(code)") })
            let column = try #require((0..<grid.size.cols).first { grid.text(row: row, from: $0).hasPrefix("SMS to") })
            return (column, row)
        }
        let dead = try cell(of: "123456")
        let live = try cell(of: "654321")
        #expect(grid.text(row: dead.row).contains(" \(word) "))
        #expect(!grid.text(row: live.row).contains(" \(word) "))
        // Dimmed as well as worded (title and detail line); the live one is not.
        #expect(grid[dead.column, dead.row].style.attributes.contains(.dim))
        #expect(grid[dead.column, dead.row + 1].style.attributes.contains(.dim))
        #expect(!grid[live.column, live.row].style.attributes.contains(.dim))
    }

    /// Issue 29 item 11: a long outbox scrolls to its selection; Home/End (g/G) go to its ends, PgUp/PgDn a
    /// page, and its bottom border says where the selection stands.
    @Test func aLongOutboxScrollsWithEndsAndPagesAndSaysWhere() {
        var state = SampleData.state([], now: start)
        state.size = .standard
        let messages = (1...20).reversed().map {
            message($0, code: String(100_000 + $0), sentAt: start - Double($0), status: .live)
        }
        state.overlay = .outbox(OutboxPanel(messages: messages, isLoading: false))
        func shown() -> String { render(state, size: .standard).text() }
        func selection() -> Int? { state.overlay?.as(OutboxPanel.self)?.selection }
        #expect(shown().contains(" 1 of 20 "))
        #expect(shown().contains("code 100020") && !shown().contains("code 100001"))
        _ = reduce(&state, .input(.key(.end)))
        #expect(selection() == 19)
        #expect(shown().contains(" 20 of 20 "))
        #expect(shown().contains("code 100001") && !shown().contains("code 100020"))
        _ = reduce(&state, .input(.key(.character("g"))))
        #expect(selection() == 0)
        _ = reduce(&state, .input(.key(.pageDown)))
        let page = selection() ?? 0
        #expect(page > 1 && page < 19)
        #expect(shown().contains(" \(page + 1) of 20 "))
        _ = reduce(&state, .input(.key(.character("G"))))
        #expect(selection() == 19)
        _ = reduce(&state, .input(.key(.home)))
        #expect(selection() == 0)
    }

    /// `/` narrows the outbox by address, code, kind, purpose or state, says how many match, and Enter uses
    /// the chosen match; Esc clears the filter, then closes.
    @Test func slashFiltersTheMessagesAndEnterUsesTheChosenMatch() throws {
        var state = SampleData.state([], now: start)
        state.size = .standard
        let messages = [
            message(3, code: "333333", sentAt: start - 5, status: .live),
            message(2, code: "222222", sentAt: start - 9, status: .expired),
            message(1, code: "111111", sentAt: start - 20, status: .live),
        ]
        state.overlay = .outbox(OutboxPanel(messages: messages, isLoading: false))
        func panel() -> OutboxPanel? { state.overlay?.as(OutboxPanel.self) }
        for key: Key in [.character("/"), .character("l"), .character("i"), .character("v"), .character("e")] {
            _ = reduce(&state, .input(.key(key)))
        }
        // Nothing but the word "live" is in a message's state line: none matches (the live ones have none).
        #expect(panel()?.shown.isEmpty == true)
        #expect(render(state, size: .standard).text().contains("No message matches the filter."))
        for _ in 0..<4 { _ = reduce(&state, .input(.key(.backspace))) }
        for character in "expired" { _ = reduce(&state, .input(.key(.character(character)))) }
        #expect(panel()?.shown.map(\.id) == [2])
        #expect(render(state, size: .standard).text().contains("1 of 3 match"))
        _ = reduce(&state, .input(.key(.escape)))
        #expect(panel()?.shown.count == 3 && state.overlay != nil)
        for key: Key in [.character("/"), .character("1"), .character("1"), .character("1"), .enter] {
            _ = reduce(&state, .input(.key(key)))
        }
        #expect(panel()?.filter.isEditing == false)
        // Enter uses the match chosen, not the message at the same place in the whole list.
        var filtered = try #require(panel())
        #expect(filtered.perform(.use, state.overlayContext) == [.dismissOverlay, .useOutboxMessage(messages[2])])
    }
}
