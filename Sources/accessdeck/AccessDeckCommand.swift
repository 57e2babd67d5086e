import ArgumentParser

@main struct AccessDeckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "accessdeck", subcommands: [Serve.self])
}
