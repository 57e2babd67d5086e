import ArgumentParser
import Foundation

// ArgumentParser's own exit prints several lines for a usage error; QA scripts want one
// line on stderr and status 64.
do {
    var command = try AccessDeckCommand.parseAsRoot()
    if let asyncCommand = command as? any AsyncParsableCommand {
        try await runAsync(asyncCommand)
    } else {
        try command.run()
    }
} catch let code as ExitCode {
    exit(code.rawValue)
} catch {
    let code = AccessDeckCommand.exitCode(for: error)
    if code == .success {
        print(AccessDeckCommand.fullMessage(for: error))
        exit(0)
    }
    let message = AccessDeckCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
    FileHandle.standardError.write(Data("accessdeck: \(message)\n".utf8))
    exit(code == .validationFailure ? 64 : code.rawValue)
}

/// Called on an existential, `run()` would resolve to ParsableCommand's synchronous default
/// (which prints help); generic over the concrete type it is the async requirement.
func runAsync<Command: AsyncParsableCommand>(_ command: Command) async throws {
    var command = command
    try await command.run()
}
