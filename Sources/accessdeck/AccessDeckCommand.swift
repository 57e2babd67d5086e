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
        subcommands: [Run.self, Serve.self, Scenarios.self, Screens.self, Render.self, Play.self, OpenLink.self],
        defaultSubcommand: Run.self
    )
}

/// `accessdeck [run]`: the app. A subcommand of its own (the default one) so its `--port`
/// and `serve --port` cannot take each other's value.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the app on the embedded reference backend, or on --backend URL (the default command).",
        discussion: AdminAPIHelp.text)

    @OptionGroup var appearance: AppearanceOptions
    @OptionGroup var backend: BackendOptions

    @Option(
        help: ArgumentHelp(
            "Country first in the country picker, as a two-letter code (DE, GE); default: the region of LC_ALL, LC_MESSAGES or LANG.",
            valueName: "XX"))
    var region: String?

    @Option(
        help: ArgumentHelp(
            "Write the session to a tape as it happens (0600); passwords and codes are never written (fixtures/tapes/README.md).",
            valueName: "FILE"))
    var record: String?

    func validate() throws {
        if let region, case .failure(let problem) = DeviceRegion.parseFlag(region) {
            throw ValidationError(problem.description)
        }
    }

    func run() async throws {
        let code = try await TerminalApp(
            appearance: appearance, backendOptions: backend, regionFlag: region,
            recording: try record.map(TapeRecording.init(path:))
        ).run()
        if code != 0 { throw ExitCode(code) }
    }
}

/// `accessdeck open-link URL`: the link from a mail, handed to the app that is running (as if tapped on
/// the phone), or a new app started on it when none runs.
struct OpenLink: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open-link",
        abstract: "Open a link from an email in the running app (or start the app on it).")

    @Argument(help: "The link, or its token, as it is in the email.")
    var link: String

    @OptionGroup var appearance: AppearanceOptions
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
            appearance: appearance, backendOptions: backend, regionFlag: nil, openingLink: link
        ).run()
        if code != 0 { throw ExitCode(code) }
    }
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

/// `--scenario NAME` names a file in fixtures/scenarios; checked while the arguments are
/// parsed, so a typo exits 64 with the names before any backend or terminal starts.
enum ScenarioArgument {
    static func validate(_ name: String) throws {
        let directory = Fixtures.defaultDirectory()
        let names = Fixtures.scenarioNames(in: directory)
        guard !names.contains(name) else { return }
        if names.isEmpty {
            throw ValidationError(
                "unknown scenario '\(name)': no scenarios in \(directory.path)/scenarios (ACCESSDECK_FIXTURES names the fixtures folder)"
            )
        }
        throw ValidationError("unknown scenario '\(name)'; scenarios: \(names.joined(separator: ", "))")
    }
}

/// Which backend the app talks to.
struct BackendOptions: ParsableArguments {
    @Option(help: "Scenario of the embedded backend, from fixtures/scenarios (`accessdeck serve` lists them on error).")
    var scenario = "default"

    @Option(help: "Talk to this backend instead of starting one, e.g. http://127.0.0.1:8080 or https://host/api/v1.")
    var backend: String?

    @Option(
        help:
            "Port of the embedded backend on 127.0.0.1 (default: a free one); its admin API is then at http://127.0.0.1:N/_admin/."
    )
    var port: Int?

    @Flag(
        help:
            "With --backend of a reference backend (`accessdeck serve`): sign in as its scenario's user by itself when no session is stored, instead of the sign-in screens."
    )
    var qaSignIn = false

    @Option(
        help: ArgumentHelp(
            "Seconds a call may wait for the backend's answer before the app is offline (default: 3 on this machine, 8 for another host; connecting gets 0.5 and 3 of them).",
            valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        if let timeout, !(0.1...600).contains(timeout) {
            throw ValidationError("--timeout takes seconds from 0.1 to 600, not \(timeout)")
        }
        // With --backend there is no embedded backend to seed.
        if backend == nil { try ScenarioArgument.validate(scenario) }
        if let port, !(1...65_535).contains(port) { throw ValidationError("--port must be 1...65535") }
        if let backend, URL(string: backend)?.scheme?.hasPrefix("http") != true {
            throw ValidationError("--backend takes an http(s) URL, not '\(backend)'")
        }
        if backend != nil, port != nil {
            throw ValidationError("--port is for the embedded backend; drop it with --backend")
        }
        if backend == nil, qaSignIn {
            throw ValidationError("--qa-sign-in is for --backend; the embedded backend signs in as its scenario says")
        }
    }
}

/// How the app looks and which platform it imitates; shared by the TUI and `render`.
struct AppearanceOptions: ParsableArguments {
    @Option(
        help:
            "Which platform's rules to follow (Apple sign-in is hidden on android): ios (the app's default) or android; `render` keeps the state's own unless given."
    )
    var platform: AppOptions.Platform?

    @Option(help: "Colour theme: dark, light or mono. NO_COLOR in the environment forces mono.")
    var theme: Theme.Name?

    @Flag(
        help: "Draw ISO codes instead of flags and ASCII instead of box drawing (on by itself for TERM=linux or dumb).")
    var ascii = false

    @Flag(
        help:
            "Leave the mouse to the terminal: no clicks or wheel in the app. With the mouse on, Shift+drag still selects text in most terminals."
    )
    var noMouse = false
}

extension AppOptions.Platform: ExpressibleByArgument {}
extension Theme.Name: ExpressibleByArgument {}
extension ExportFormat: ExpressibleByArgument {}

/// `accessdeck screens`: every screen and named state, one SCREEN:STATE a line.
struct Screens: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List every screen and named state, one a line.")

    @Flag(help: "Add each state's one-line summary after a tab.")
    var summaries = false

    func run() {
        for entry in Gallery.entries {
            print(summaries ? "\(entry.id)\t\(entry.summary)" : entry.id)
        }
    }
}

/// `accessdeck render SCREEN[:STATE]`: draw one screen headless and print it as text, ANSI,
/// SVG or HTML.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print one screen in one state as text, ANSI, SVG or HTML, then exit.")

    @Argument(help: "SCREEN or SCREEN:STATE, as listed by `accessdeck screens`.")
    var id: String

    @Option(help: "Terminal size as COLSxROWS.")
    var size: String = "80x24"

    @Option(
        help:
            "text, ansi (colours as SGR codes), svg or html (pictures in the theme's colours); --theme picks the colours (default dark, mono under NO_COLOR)."
    )
    var format: ExportFormat = .text

    @OptionGroup var appearance: AppearanceOptions

    func validate() throws {
        guard Gallery.entry(id) != nil else {
            throw ValidationError("no screen named '\(id)'; `accessdeck screens` lists them")
        }
        guard Size(parsing: size) != nil else {
            throw ValidationError("--size takes COLSxROWS, such as 80x24, not '\(size)'")
        }
    }

    func run() {
        let entry = Gallery.entry(id)!
        var state = entry.makeState(Date(timeIntervalSince1970: 1_800_000_000))
        // A state named android renders android unless --platform says otherwise.
        if let platform = appearance.platform { state.options.platform = platform }
        state.options.ascii = appearance.ascii
        var grid = AccessApp.render(state, size: Size(parsing: size)!)
        if appearance.ascii { grid = grid.asciiFallback() }
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let theme = Theme.named(appearance.theme ?? (noColor ? .mono : .dark))
        print(GridExport.export(grid, as: format, theme: theme, title: "AccessDeck \(id)"), terminator: "")
    }
}

/// `accessdeck scenarios`: every scenario of fixtures/scenarios with what it sets up, one a line.
struct Scenarios: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the reference backend's scenarios (fixtures/scenarios), one a line with its description.")

    func run() throws {
        let summaries: [ScenarioSummary]
        do {
            summaries = try Fixtures.scenarioSummaries()
        } catch {
            throw RuntimeError("\(error)")
        }
        let width = summaries.map(\.name.count).max() ?? 0
        for summary in summaries {
            print(summary.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + summary.description)
        }
    }
}
