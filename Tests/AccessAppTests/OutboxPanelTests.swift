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
        let harness = ReducerHarness(state, exhaustivity: .off)
        func shown() -> String { render(harness.state, size: .standard).text() }
        func selection() -> Int? { harness.state.overlay?.as(OutboxPanel.self)?.selection }
        #expect(shown().contains(" 1 of 20 "))
        #expect(shown().contains("code 100020") && !shown().contains("code 100001"))
        harness.send(.input(.key(.end)))
        #expect(selection() == 19)
        #expect(shown().contains(" 20 of 20 "))
        #expect(shown().contains("code 100001") && !shown().contains("code 100020"))
        harness.send(.input(.key(.character("g"))))
        #expect(selection() == 0)
        harness.send(.input(.key(.pageDown)))
        let page = selection() ?? 0
        #expect(page > 1 && page < 19)
        #expect(shown().contains(" \(page + 1) of 20 "))
        harness.send(.input(.key(.character("G"))))
        #expect(selection() == 19)
        harness.send(.input(.key(.home)))
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
        let harness = ReducerHarness(state, exhaustivity: .off)
        func panel() -> OutboxPanel? { harness.state.overlay?.as(OutboxPanel.self) }
        for key: Key in [.character("/"), .character("l"), .character("i"), .character("v"), .character("e")] {
            harness.send(.input(.key(key)))
        }
        // Nothing but the word "live" is in a message's state line: none matches (the live ones have none).
        #expect(panel()?.shown.isEmpty == true)
        #expect(render(harness.state, size: .standard).text().contains("No message matches the filter."))
        for _ in 0..<4 { harness.send(.input(.key(.backspace))) }
        for character in "expired" { harness.send(.input(.key(.character(character)))) }
        #expect(panel()?.shown.map(\.id) == [2])
        #expect(render(harness.state, size: .standard).text().contains("1 of 3 match"))
        harness.send(.input(.key(.escape)))
        #expect(panel()?.shown.count == 3 && harness.state.overlay != nil)
        for key: Key in [.character("/"), .character("1"), .character("1"), .character("1"), .enter] {
            harness.send(.input(.key(key)))
        }
        #expect(panel()?.filter.isEditing == false)
        // Enter uses the match chosen, not the message at the same place in the whole list.
        var filtered = try #require(panel())
        #expect(
            filtered.perform(.use, harness.state.overlayContext) == [.dismissOverlay, .useOutboxMessage(messages[2])])
    }

    // MARK: - As the customer got it (issue 49 item 4)

    /// `start` on the backend's clock: 2027-01-15 08:00:00 UTC.
    var morning: Date { start }

    @Test func eachRowSaysItsTimeOnTheBackendsClockBesideItsAge() {
        var state = SampleData.state([], now: morning + 95)
        let sent = OutboxMessage(
            id: 1, channel: "sms", to: "+995511200300", kind: "otp", purpose: "sign_in", code: "482915", link: nil,
            token: nil, sentAt: morning + 7, status: .live,
            text: "321Fit: 482915 is your 321Fit sign-in code. It expires in 5 minutes. Don't share it with anyone.")
        state.overlay = .outbox(OutboxPanel(messages: [sent], isLoading: false))
        #expect(line("08:00:07 · 1 min ago", in: state) != nil)
        #expect(line("code 482915 · sign-in", in: state) != nil)
    }

    @Test func theSelectedMessageShowsItsWholeTextAndSubjectUnderTheList() throws {
        var state = SampleData.state([], now: start)
        let text =
            "Open this link to verify it's you: https://321.fit/reauth?token=abc\nIt works once, for 30 minutes. "
            + "If you didn't ask for it, ignore this email."
        let mail = OutboxMessage(
            id: 2, channel: "email", to: "jdoe@mail.com", kind: "reauth_link", purpose: "reauth", code: nil,
            link: "https://321.fit/reauth?token=abc", token: "abc", sentAt: start - 5, status: .live, text: text,
            subject: "Verify it's you")
        let sms = message(1, code: "123456", sentAt: start - 9, status: .live)
        state.overlay = .outbox(OutboxPanel(messages: [mail, sms], isLoading: false))
        let shown = render(state, size: .standard).text()
        #expect(shown.contains("Subject: Verify it's you"))
        #expect(shown.contains("Open this link to verify it's you: https://321.fit/reauth?token=abc"))
        #expect(shown.contains("It works once, for 30 minutes."))
        #expect(shown.contains("If you didn't ask for it, ignore this"))
        // Down: the SMS is the one shown in full.
        state.overlay = .outbox(OutboxPanel(messages: [mail, sms], selection: 1, isLoading: false))
        let second = render(state, size: .standard).text()
        #expect(second.contains("Text message:"))
        #expect(!second.contains("Subject: Verify it's you"))
    }

    @Test func aRefusedSendIsARowOfItsOwnWithItsLimitAndWhenOneCanGoAgain() throws {
        var state = SampleData.state([], now: morning + 60)
        let refused = OutboxMessage(
            id: 3, channel: "sms", to: "+995511100000", kind: "send_refused", purpose: "sign_in", code: nil, link: nil,
            token: nil, sentAt: morning + 29, status: .live, text: "Please wait before requesting another code.",
            limit: .cooldown, retryAt: morning + 30)
        let sent = message(2, code: "222222", sentAt: morning, status: .live)
        state.overlay = .outbox(OutboxPanel(messages: [refused, sent], isLoading: false))
        let grid = render(state, size: .standard)
        let title = try #require(line("not sent: a sign-in code", in: state))
        #expect(title.contains(" not sent "))
        #expect(line("08:00:29 · 31 s ago · 30 s between sends · again from 08:00:30", in: state) != nil)
        #expect(grid.text().contains("Not sent. The backend answered:"))
        #expect(grid.text().contains("Please wait before requesting another code."))
        // Enter on it says there is nothing to use.
        #expect(OutboxPanel.unusableText(refused) == "That send was refused: nothing went out.")
    }

    /// Labels in words, never the wire's `recovery_code_used_notice · for remaining:9`.
    @Test func aNoticeIsLabelledInWords() {
        let notice = OutboxMessage(
            id: 4, channel: "email", to: "jdoe@mail.com", kind: "recovery_code_used_notice", purpose: "remaining:9",
            code: nil, link: nil, token: nil, sentAt: start, status: .live, text: "A recovery code was used.",
            subject: "A recovery code was used")
        let described = OutboxPanel.describe(notice, now: start)
        #expect(described.title == "Email to jdoe@mail.com · Recovery code used — 9 left")
        #expect(!described.title.contains("_") && !described.detail.contains("remaining:"))
    }
}
