import AccessAPI
import Foundation

public enum Fixtures {
    /// `ACCESSDECK_FIXTURES` if set; else `./fixtures` if it exists; else the nearest `fixtures/scenarios`
    /// above the executable (so a built binary finds the checkout's fixtures from any working directory).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["ACCESSDECK_FIXTURES"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let manager = FileManager.default
        let local = URL(fileURLWithPath: manager.currentDirectoryPath).appendingPathComponent("fixtures")
        if manager.fileExists(atPath: local.appendingPathComponent("scenarios").path) {
            return local
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            let candidate = directory.appendingPathComponent("fixtures")
            if manager.fileExists(atPath: candidate.appendingPathComponent("scenarios").path) {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
        return local
    }

    /// Names of the scenarios in `directory`, sorted.
    public static func scenarioNames(in directory: URL = defaultDirectory()) -> [String] {
        ScenarioCatalog(directory: directory).names()
    }

    /// Each scenario's name and one-line description, sorted by name; a scenario that does not load
    /// throws, naming its file.
    public static func scenarioSummaries(in directory: URL = defaultDirectory()) throws -> [ScenarioSummary] {
        try ScenarioCatalog(directory: directory).summaries()
    }

    /// The password scenario `name`'s user has in its fixture (plain text there, so that QA can type it): what a
    /// tape's `secret scenario` types (issue 51 item 5). nil for an unknown scenario or a user without one.
    public static func password(ofScenario name: String, in directory: URL = defaultDirectory()) -> String? {
        guard Fixtures.scenarioNames(in: directory).contains(name) else { return nil }
        return try? ScenarioCatalog(directory: directory).load(name).user.password
    }

    /// Whether the app on this scenario starts signed in as its user (`signed_in`, default true) or on
    /// Welcome, read from the file alone: the app draws that first screen while its backend starts, so this
    /// reads one member and validates nothing. nil when the file does not read as a JSON object (the start
    /// then says what is wrong with it).
    public static func startsSignedIn(_ scenario: String, in directory: URL = defaultDirectory()) -> Bool? {
        let file = ScenarioCatalog(directory: directory).scenariosDirectory.appendingPathComponent("\(scenario).json")
        guard let data = try? Data(contentsOf: file),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["signed_in"] as? Bool != false
    }
}
