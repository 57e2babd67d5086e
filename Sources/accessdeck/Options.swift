import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import ArgumentParser
import Foundation
import TerminalKit

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
            "With --backend: it is a reference backend (`accessdeck serve`), so the app uses its admin API (console, outbox, clock) and simulated providers. Without it another backend gets only the public contract; nothing is probed to find out."
    )
    var referenceBackend = false

    @Flag(
        help:
            "With --backend of a reference backend (`accessdeck serve`; implies --reference-backend): sign in as its scenario's user by itself when no session is stored, instead of the sign-in screens."
    )
    var qaSignIn = false

    @Option(
        help: ArgumentHelp(
            "With --backend of a reference backend: work in its world NAME (the app's base URL is URL/w/NAME; "
                + "implies --reference-backend). Lower-case letters, digits and -.", valueName: "name"))
    var world: String?

    /// What the app talks to: `--backend`, in `--world` if given.
    var backendURL: String? {
        guard let backend else { return nil }
        return world.map { WorldNames.baseURL(backend, world: $0) } ?? backend
    }

    /// `--backend` is a reference backend because the user said so: no admin path is asked to decide.
    var declaresReferenceBackend: Bool { referenceBackend || qaSignIn || world != nil }

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
        if backend == nil, referenceBackend {
            throw ValidationError("--reference-backend is for --backend; the embedded backend is the reference one")
        }
        if let world {
            guard backend != nil else {
                throw ValidationError("--world is for --backend of a reference backend (accessdeck serve)")
            }
            guard WorldNames.isValid(world) else { throw ValidationError("--world '\(world)': \(WorldNames.problem)") }
        }
        if backend == nil, qaSignIn {
            throw ValidationError("--qa-sign-in is for --backend; the embedded backend signs in as its scenario says")
        }
    }
}

/// How the app looks and which platform it imitates; shared by the TUI, `render` and `play`.
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

/// The mouse of the interactive app (`run`, `open-link`); `render` and `play` take no clicks, so they do not
/// offer it.
struct MouseOptions: ParsableArguments {
    @Flag(
        help:
            "Leave the mouse to the terminal: no clicks or wheel in the app. With the mouse on, Shift+drag still selects text in most terminals."
    )
    var noMouse = false
}

extension AppOptions.Platform: ExpressibleByArgument {}

extension Theme.Name: ExpressibleByArgument {}
