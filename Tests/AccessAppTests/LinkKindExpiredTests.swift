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
        RegistrationLink(email: "new.user@mail.com"), RecoveryEmailLink(), AccountRecoveryLink(),
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
    }
}
