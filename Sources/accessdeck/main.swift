import ArgumentParser
import Foundation

// ArgumentParser's own exit prints several lines for a usage error; QA scripts want one
// line on stderr and status 64.
do {
    var command = try AccessDeckCommand.parseAsRoot()
    if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
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
