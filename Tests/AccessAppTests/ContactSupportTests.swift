import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

@Suite struct ContactSupportTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let userId = SampleData.everyMethod.userId
    let toastTimer = Effect.after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast)

    /// Signed in, stuck in "Verify it's you" after a refused code.
    var ticket: SupportTicket {
        SupportTicket(
            who: .user(userId), flow: ["hub", "reauth-picker"],
            lastError: .init(code: "code_incorrect", requestID: "5f3a-12"))
    }

    func onSupport(options: AppOptions = .init()) -> AppState {
        SampleData.state(
            [ReauthPickerScreen(flow: .changePhone, selection: 4), ContactSupportScreen(ticket: ticket)], now: start,
            options: options)
    }

    /// The metadata block every prepared mail ends with, for `ticket`.
    func details(_ ticket: SupportTicket, options: AppOptions = .init()) -> String {
        ticket.fields(options).map { "\($0.label): \($0.value)" }.joined(separator: "\n")
    }

    @Test func theMailURLIsPrefilledAndPercentEncoded() throws {
        let url = try #require(
            ContactSupportScreen.mailURL(ticket, options: AppOptions(appVersion: "1.0.0 (build 42)")))
        #expect(
            url.absoluteString
                == "mailto:support@321.fit?subject=Help%20%5Busr_7G8H9K2L%5D&body=%0D%0A%0D%0A%0D%0A"
                + "User%20ID%3A%20usr_7G8H9K2L%0D%0AFlow%3A%20hub%20%E2%80%BA%20reauth-picker%0D%0A"
                + "Screen%3A%20reauth-picker%0D%0ALast%20error%3A%20code_incorrect%0D%0A"
                + "Request%20ID%3A%205f3a-12%0D%0AApp%20version%3A%201.0.0%20%28build%2042%29%0D%0A"
                + "Device%3A%20Terminal%20%C2%B7%20Linux")
    }

    @Test func theMailURLDecodesBackToTheSubjectAndBody() throws {
        var odd = ticket
        odd.who = .user("usr_A&B=C")
        let url = try #require(ContactSupportScreen.mailURL(odd, options: AppOptions()))
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        #expect(components.scheme == "mailto")
        #expect(components.path == "support@321.fit")
        let items = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(items["subject"] == "Help [usr_A&B=C]")
        #expect(
            items["body"]
                == "\r\n\r\n\r\nUser ID: usr_A&B=C\r\nFlow: hub › reauth-picker\r\nScreen: reauth-picker\r\n"
                + "Last error: code_incorrect\r\nRequest ID: 5f3a-12\r\nApp version: \(AppVersion.current)\r\n"
                + "Device: Terminal · Linux")
    }

    /// Issue 49 item 6: signed out, the mail named nobody ("Help [unknown]"); now the number or address typed
    /// stands in the subject and the body, and with nothing typed it says so.
    @Test func signedOutTheMailNamesWhatWasTyped() {
        let phone = SupportTicket(who: .phone("+995511200300"), flow: ["sign-in", "enter-phone"])
        let byPhone = ContactSupportScreen.mail(phone, options: AppOptions())
        #expect(byPhone.subject == "Help [+995 511 200 300]")
        #expect(
            byPhone.body.contains("Phone typed: +995 511 200 300\nFlow: sign-in › enter-phone\nScreen: enter-phone"))
        #expect(byPhone.body.contains("Last error: none\nRequest ID: none"))
        let byEmail = ContactSupportScreen.mail(
            SupportTicket(who: .email("ana@example.com"), flow: ["sign-in", "sign-in-email"]), options: AppOptions())
        #expect(byEmail.subject == "Help [ana@example.com]")
        #expect(byEmail.body.contains("Email typed: ana@example.com"))
        let nothing = ContactSupportScreen.mail(
            SupportTicket(who: .signedOut, flow: ["sign-in"]), options: AppOptions())
        #expect(nothing.subject == "Help [not signed in]")
        #expect(nothing.body.contains("User ID: not signed in"))
        for mail in [byPhone, byEmail, nothing] { #expect(!"\(mail)".contains("unknown")) }
    }

    /// The last error is the last failed call of the app's journal, with the request ID the backend journals it
    /// under; a success after it does not hide it, a call the app cancelled is not an error.
    @Test func theLastErrorIsTheJournalsLastFailure() {
        func record(_ id: String, _ status: Int?, _ code: String?) -> RequestRecord {
            RequestRecord(
                requestID: id, method: "POST", path: "/auth/phone/verify", status: status, milliseconds: 1,
                errorCode: code)
        }
        #expect(SupportTicket.lastError(in: []) == nil)
        #expect(SupportTicket.lastError(in: [record("a-1", 200, nil)]) == nil)
        #expect(
            SupportTicket.lastError(in: [
                record("a-1", 401, "code_incorrect"), record("a-2", 409, "recently_deleted"), record("a-3", 200, nil),
                record("a-4", nil, "cancelled"),
            ]) == .init(code: "recently_deleted", requestID: "a-2"))
        #expect(
            SupportTicket.lastError(in: [record("a-5", nil, "offline")]) == .init(code: "offline", requestID: "a-5"))
    }

    @Test func enterOnOpenMailOpensTheMailURLOfTheBrand() throws {
        let brand = Brand(name: "Acme", supportEmail: "help@acme.test")
        let options = AppOptions(brand: brand, deviceDescription: "Terminal · macOS")
        let url = try #require(ContactSupportScreen.mailURL(ticket, options: options))
        #expect(url.absoluteString.hasPrefix("mailto:help@acme.test?subject=Help%20%5Busr_7G8H9K2L%5D&body="))
        #expect(url.absoluteString.hasSuffix("Device%3A%20Terminal%20%C2%B7%20macOS"))
        let harness = ReducerHarness(onSupport(options: options))
        harness.send(.input(.key(.enter)), effects: [.open(url), toastTimer]) {
            $0.top = AnyScreen(ContactSupportScreen(ticket: self.ticket, showsMail: true))
            $0.toast = Toast("Opening a mail to help@acme.test in your mail app.", shownAt: self.start)
        }
        harness.send(.input(.key(.character("o"))), effects: [.open(url), toastTimer])
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    /// Issue 28 item 13: with no mail client the opener gives up, and the person is told, with the address.
    @Test func openMailWithNoMailClientSaysSo() throws {
        let harness = ReducerHarness(onSupport())
        let url = try #require(ContactSupportScreen.mailURL(ticket, options: AppOptions()))
        harness.send(.input(.key(.enter)), effects: [.open(url), toastTimer]) {
            $0.top = AnyScreen(ContactSupportScreen(ticket: self.ticket, showsMail: true))
            $0.toast = Toast("Opening a mail to support@321.fit in your mail app.", shownAt: self.start)
        }
        harness.send(.openFailed(url), effects: [toastTimer]) {
            $0.toast = Toast(
                "No mail app opened on this computer. Write to support@321.fit instead.", shownAt: self.start)
        }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    /// Issue 28 item 13: the prepared mail's address and subject head its details in their columns, under
    /// a line of their own, not jammed on one line above "User ID".
    @Test func thePreparedMailReadsAsLabelledRows() {
        var state = onSupport()
        state.top = AnyScreen(ContactSupportScreen(ticket: ticket, showsMail: true))
        let text = render(state, size: .standard).text()
        #expect(!text.contains("To: support@321.fit · Subject:"))
        for line in [
            ContactSupportScreen.preparedText, "To            support@321.fit", "Subject       Help [usr_7G8H9K2L]",
            "User ID       usr_7G8H9K2L", "Flow          hub › reauth-picker", "Screen        reauth-picker",
            "Last error    code_incorrect", "Request ID    5f3a-12", "Copy the mail",
        ] {
            #expect(text.contains(line), "missing: \(line)\n\(text)")
        }
    }

    /// A terminal may have no mail client: the prepared mail shows on screen and can be copied whole.
    @Test func openMailAlsoShowsTheMailAndMCopiesIt() throws {
        let harness = ReducerHarness(onSupport())
        let url = try #require(ContactSupportScreen.mailURL(ticket, options: AppOptions()))
        harness.send(.input(.key(.character("m"))))  // nothing prepared yet
        harness.send(.input(.key(.character("o"))), effects: [.open(url), toastTimer]) {
            $0.top = AnyScreen(ContactSupportScreen(ticket: self.ticket, showsMail: true))
            $0.toast = Toast("Opening a mail to support@321.fit in your mail app.", shownAt: self.start)
        }
        let text = render(harness.state, size: .standard).text()
        #expect(text.contains("Subject       Help [usr_7G8H9K2L]"))
        #expect(text.contains("Copy the mail"))
        let mail = "To: support@321.fit\nSubject: Help [usr_7G8H9K2L]\n\n\n\n\n" + details(ticket)
        harness.send(.input(.key(.character("m"))), effects: [.copy(mail), toastTimer]) {
            $0.toast = Toast("Copied the mail to clipboard", shownAt: self.start)
        }
        harness.send(.input(.key(.down))) {
            $0.top = AnyScreen(ContactSupportScreen(ticket: self.ticket, selection: .copy, showsMail: true))
        }
        harness.send(.input(.key(.down))) {
            $0.top = AnyScreen(ContactSupportScreen(ticket: self.ticket, selection: .copyMail, showsMail: true))
        }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    @Test func copyPutsTheAddressOnTheClipboardAndSaysSo() {
        let harness = ReducerHarness(onSupport())
        harness.send(.input(.key(.down))) {
            $0.top = AnyScreen(ContactSupportScreen(ticket: self.ticket, selection: .copy))
        }
        harness.send(.input(.key(.enter)), effects: [.copy("support@321.fit"), toastTimer]) {
            $0.toast = Toast("Copied support@321.fit to clipboard", shownAt: self.start)
        }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
        harness.send(.input(.key(.up))) { $0.top = AnyScreen(ContactSupportScreen(ticket: self.ticket)) }
    }

    @Test func cCopiesTheBrandsAddressFromAnyRow() {
        let options = AppOptions(brand: Brand(name: "Acme", supportEmail: "help@acme.test"))
        let harness = ReducerHarness(onSupport(options: options))
        harness.send(.input(.key(.character("c"))), effects: [.copy("help@acme.test"), toastTimer]) {
            $0.toast = Toast("Copied help@acme.test to clipboard", shownAt: self.start)
        }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    @Test func escGoesBackAndQQuits() {
        let harness = ReducerHarness(onSupport())
        harness.send(.input(.key(.character("q"))), effects: [.quit])
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
    }

    @Test func theScreenShowsTheBrandsAddressAndTheDeviceFromOptions() {
        let options = AppOptions(
            appVersion: "9.9.9", brand: Brand(name: "Acme", supportEmail: "help@acme.test"),
            deviceDescription: "Terminal · FreeBSD")
        let text = render(onSupport(options: options), size: .standard).text()
        #expect(text.contains("help@acme.test"))
        #expect(!text.contains("support@321.fit"))
        #expect(text.contains("9.9.9"))
        #expect(text.contains("Terminal · FreeBSD"))
        #expect(text.contains("usr_7G8H9K2L"))
    }
}
