import AccessApp
import ArgumentParser
import Foundation
import TerminalKit

struct AccessDeckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accessdeck",
        abstract: "Walk a mobile app's sign-in and Account Access flows in a terminal.",
        version: AppVersion.current,
        subcommands: [Run.self, Serve.self, Screens.self, Render.self, Play.self],
        defaultSubcommand: Run.self
    )
}

/// `accessdeck [run]`: the app. A subcommand of its own (the default one) so its `--port`
/// and `serve --port` cannot take each other's value.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the app on the embedded reference backend, or on --backend URL (the default command).")

    @OptionGroup var appearance: AppearanceOptions
    @OptionGroup var backend: BackendOptions

    func run() async throws {
        let code = try await TerminalApp(appearance: appearance, backendOptions: backend).run()
        if code != 0 { throw ExitCode(code) }
    }
}

/// Which backend the app talks to.
struct BackendOptions: ParsableArguments {
    @Option(help: "Scenario of the embedded backend, from fixtures/scenarios (`accessdeck serve` lists them on error).")
    var scenario = "default"

    @Option(help: "Talk to this backend instead of starting one, e.g. http://127.0.0.1:8080 or https://host/api/v1.")
    var backend: String?

    @Option(help: "Port of the embedded backend on 127.0.0.1 (default: a free one).")
    var port: Int?

    func validate() throws {
        if let port, !(1...65_535).contains(port) { throw ValidationError("--port must be 1...65535") }
        if let backend, URL(string: backend)?.scheme?.hasPrefix("http") != true {
            throw ValidationError("--backend takes an http(s) URL, not '\(backend)'")
        }
        if backend != nil, port != nil {
            throw ValidationError("--port is for the embedded backend; drop it with --backend")
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
}

extension AppOptions.Platform: ExpressibleByArgument {}
extension Theme.Name: ExpressibleByArgument {}

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

/// `accessdeck render SCREEN[:STATE]`: draw one screen headless and print it as text.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print one screen in one state as text, then exit.")

    @Argument(help: "SCREEN or SCREEN:STATE, as listed by `accessdeck screens`.")
    var id: String

    @Option(help: "Terminal size as COLSxROWS.")
    var size: String = "80x24"

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
        print(grid.text())
    }
}
