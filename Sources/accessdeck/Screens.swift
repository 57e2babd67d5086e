import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import ArgumentParser
import Foundation
import TerminalKit

/// `accessdeck screens`: every screen and named state, one SCREEN:STATE a line.
struct Screens: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List every screen and named state, one a line.")

    @Flag(help: "Add each state's one-line summary after a tab.")
    var summaries = false

    @Flag(
        help:
            "Only the states `--start-at` can start at, each with the backend calls that reach it after a tab (signed out: from Welcome, on a scenario that starts signed out)."
    )
    var startable = false

    func run() {
        if startable {
            for entry in StartAt.startable {
                guard let road = entry.road else { continue }
                print("\(entry.id)\t\(road.signedIn ? "" : "signed out: ")\(road.calls.joined(separator: ", "))")
            }
            return
        }
        for entry in Gallery.entries {
            print(summaries ? "\(entry.id)\t\(entry.summary)" : entry.id)
        }
    }
}
