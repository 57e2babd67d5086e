import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import ArgumentParser
import Foundation
import TerminalKit

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
