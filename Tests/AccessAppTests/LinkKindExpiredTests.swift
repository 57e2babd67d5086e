import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// "This link has expired" says the lifetime of the kind of link that was opened, from AccessCore's table, and
/// offers only what that kind allows (issue 46 item 5): a used revert link (7 days) said "Verification links
/// expire after 30 minutes. Request a new one", and offered nothing to request.
@Suite struct LinkKindExpiredTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Every link the app opens.
    static let purposes: [any LinkPurpose] = [
        ReauthLink(flow: .changePhone), EmailChangeLink(), RevertEmailLink(), RegistrationLink(),
        RegistrationLink(email: "new.user@mail.com"), RecoveryEmailLink(email: "jdoe@mail.com"),
        AccountRecoveryLink(),
        ForgotPasswordLink(email: "jdoe@mail.com"),
    ]

    static func text(_ link: some LinkPurpose) -> String {
        render(SampleData.state([LinkExpiredScreen(link: AnyLinkPurpose(link))], now: start), size: .standard)
            .textLines().map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    @Test(arguments: purposes.indices)
    func theExpiredScreenSaysItsKindsLifetimeAndOffersOnlyWhatItAllows(_ index: Int) {
        let link = Self.purposes[index]
        let text = Self.text(link)
        let lifetime = RuleText.duration(link.kind.rules.lifetime)
        #expect(text.contains(lifetime), "\(link) does not say \(lifetime): \(text)")
        // No other link kind's lifetime.
        for other in Set(EmailLink.allCases.map { RuleText.duration($0.rules.lifetime) }) where other != lifetime {
            #expect(!text.contains(other), "\(link) says \(other)")
        }
        // A kind nobody can ask for again neither says to request one nor offers it.
        if !link.kind.rules.requestable {
            #expect(!text.contains("Request a new"), "\(link): \(text)")
        }
        if text.contains("Request a new link") {
            #expect(link.kind.rules.requestable)
        }
        // Saying "Request a new one" is offering it: over Contact support alone it was a dead end (the recovery
        // email's link, a registration link opened with no address known).
        #expect(
            text.contains("Request a new one") == text.contains("Request a new link"),
            "\(link) says one thing and offers another: \(text)")
    }

    /// Onboarding's recovery email: its link can be asked for again, from "Verify your email", where the expired
    /// screen's "Request a new link" leads.
    @Test func theRecoveryEmailsExpiredLinkLeadsToItsResend() {
        let state = SampleData.state(
            [
                VerifyRecoveryEmailScreen(email: "jdoe@mail.com"),
                LinkExpiredScreen(link: AnyLinkPurpose(RecoveryEmailLink(email: "jdoe@mail.com"))),
            ], now: Self.start)
        #expect(render(state, size: .standard).text().contains("Request a new link"))
        var screen = state.top.as(LinkExpiredScreen.self)!
        let commands = screen.perform(.choose, state.context)
        #expect(
            commands == [
                .popToNearest([ScreenType(VerifyRecoveryEmailScreen.self)]),
                .replaceTop(AnyScreen(VerifyRecoveryEmailScreen(email: "jdoe@mail.com"))),
            ])
    }
}
