import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import ArgumentParser
import Foundation
import TerminalKit

struct AccessDeckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accessdeck",
        abstract: "Walk a mobile app's sign-in and Account Access flows in a terminal.",
        discussion: AdminAPIHelp.text,
        version: AppVersion.current,
        subcommands: [
            Run.self, Serve.self, Scenarios.self, Screens.self, Render.self, Play.self, OpenLink.self, TOTPCode.self,
            Conform.self, Proxy.self, TimelineCommand.self, BugReportCommand.self, OpenReport.self,
        ],
        defaultSubcommand: Run.self
    )
}

/// How to reach the embedded backend's admin API, for `--help` (issue 10 item 16).
enum AdminAPIHelp {
    static let text = """
        The app runs the reference backend inside itself. To reach its admin API (clock, outbox, \
        faults, scenarios), give it a port: `accessdeck --port 8080`, then \
        http://127.0.0.1:8080/_admin/… from another terminal, e.g. \
        `curl -s -X POST 127.0.0.1:8080/_admin/clock/advance -H 'Content-Type: application/json' -d '{"seconds":30}'`. \
        `accessdeck serve --port 8080` runs the backend alone.
        """
}
