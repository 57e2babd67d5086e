import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import ArgumentParser
import Foundation
import TerminalKit

/// `accessdeck [run]`: the app. A subcommand of its own (the default one) so its `--port`
/// and `serve --port` cannot take each other's value.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the app on the embedded reference backend, or on --backend URL (the default command).",
        discussion: AdminAPIHelp.text)

    @OptionGroup var appearance: AppearanceOptions
    @OptionGroup var mouse: MouseOptions
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

    @Option(
        help: ArgumentHelp(
            "Record the screen to an asciicast v2 file as it changes (asciinema, agg; 0600): the screen as drawn, never the keys, with codes and passwords as dots and the outbox panel left out.",
            valueName: "FILE.cast"))
    var cast: String?

    @Option(
        help: ArgumentHelp(
            "Start on this screen with its state in place, reached by the backend calls a walk there makes (reference backend), e.g. enter-code or enter-code:empty; a name that cannot be started at lists those that can.",
            valueName: "SCREEN"))
    var startAt: String?

    func validate() throws {
        if let startAt {
            if case .failure(let problem) = StartAt.resolve(startAt) { throw ValidationError(problem.description) }
            if backend.backend != nil, !backend.declaresReferenceBackend {
                throw ValidationError(
                    "--start-at reads codes from the reference backend's outbox: add --reference-backend, or drop --backend"
                )
            }
        }
        if let region, case .failure(let problem) = DeviceRegion.parseFlag(region) {
            throw ValidationError(problem.description)
        }
    }

    func run() async throws {
        let code = try await TerminalApp(
            appearance: appearance, mouse: !mouse.noMouse, backendOptions: backend, regionFlag: region,
            startAt: startAt.flatMap { try? StartAt.resolve($0).get() },
            recording: try record.map(TapeRecording.init(path:)),
            castRecording: try cast.map(CastRecording.init(path:))
        ).run()
        if code != 0 { throw ExitCode(code) }
    }
}
