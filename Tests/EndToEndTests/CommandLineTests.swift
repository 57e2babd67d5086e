import Foundation
import Testing

/// The command line's print-and-exit commands, run as the real binary.
@Suite struct CommandLineTests {
    /// Runs the binary with `arguments`; returns its exit status and what it printed.
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try AccessDeckBinary.requireBuilt())
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func aStateNamedAndroidRendersAndroidUnlessTheFlagSaysOtherwise() throws {
        let android = try run(["render", "hub:android"])
        #expect(android.status == 0)
        #expect(android.output.contains("Google"))
        #expect(!android.output.contains("Apple"))
        let forced = try run(["render", "hub:android", "--platform", "ios"])
        #expect(forced.output.contains("Apple"))
        let ios = try run(["render", "hub:default"])
        #expect(ios.output.contains("Apple"))
    }
}
