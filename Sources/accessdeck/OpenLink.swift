import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import ArgumentParser
import Foundation
import TerminalKit

/// `accessdeck open-link URL`: the link from a mail, handed to the app that is running (as if tapped on
/// the phone), or a new app started on it when none runs.
struct OpenLink: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open-link",
        abstract: "Open a link from an email in the running app (or start the app on it).")

    @Argument(help: "The link, or its token, as it is in the email.")
    var link: String

    @OptionGroup var appearance: AppearanceOptions
    @OptionGroup var mouse: MouseOptions
    @OptionGroup var backend: BackendOptions

    func validate() throws {
        let trimmed = link.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed.utf8.count > LinkInbox.maxLength {
            throw ValidationError("the link must be 1 to \(LinkInbox.maxLength) bytes")
        }
    }

    func run() async throws {
        if LinkInbox.hand(link, to: LinkInbox.socketPath()) {
            print("Handed the link to the running AccessDeck.")
            return
        }
        let code = try await TerminalApp(
            appearance: appearance, mouse: !mouse.noMouse, backendOptions: backend, regionFlag: nil,
            openingLink: link
        ).run()
        if code != 0 { throw ExitCode(code) }
    }
}
