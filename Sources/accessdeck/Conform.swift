import AccessConform
import ArgumentParser
import Foundation

/// `accessdeck conform`: checks a backend against the rules of docs/RULES.md, one check per rule (issue 32).
struct Conform: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conform",
        abstract: "Check a backend against the rules (docs/RULES.md): kept, broken, skipped or cannot tell, per rule.",
        discussion: """
            Exit status: 0 when no rule is broken, 1 when one is, 64 on bad usage. Codes and links come from the \
            reference backend's outbox, from --inbox CMD (run as `CMD DESTINATION`; the last line it prints is the \
            code or link), or are typed when stdin is a terminal. See docs/command-line.md.
            """)

    @Option(help: ArgumentHelp("The backend's base URL.", valueName: "url"))
    var backend: String

    @Option(help: ArgumentHelp("Write JUnit XML, one testcase per rule.", valueName: "file"))
    var junit: String?

    @Option(
        parsing: .singleValue,
        help: ArgumentHelp("Only these rule ids or families (repeat, or separate with commas).", valueName: "rule"))
    var only: [String] = []

    @Option(
        parsing: .singleValue,
        help: ArgumentHelp("Leave out these rule ids or families (repeat, or separate with commas).", valueName: "rule")
    )
    var skip: [String] = []

    @Option(
        help: ArgumentHelp(
            "A command given the destination (phone or email) that prints the newest code or link sent to it.",
            valueName: "cmd"))
    var inbox: String?

    @Option(
        help: ArgumentHelp(
            "An existing account's phone (+…) or email to sign into by code, instead of signing up.",
            valueName: "destination"))
    var account: String?

    @Option(
        help: ArgumentHelp(
            "A JSON file of accounts only the backend's owner can set up (one with bookings, one whose only way in is "
                + "Apple or Google): see docs/command-line.md.", valueName: "file"))
    var fixtureAccounts: String?

    @Flag(help: "Wait for real for rules that need more than 30 s (a code's 5 min, Verify it's you's 15 min).")
    var waitLong = false

    @Option(help: ArgumentHelp("New accounts' phone numbers start with this.", valueName: "prefix"))
    var phonePrefix = "+99559"

    @Option(help: ArgumentHelp("New accounts' email addresses are at this domain.", valueName: "domain"))
    var emailDomain = "conform.example"

    @Option(
        help: ArgumentHelp(
            "Sent as X-Admin-Token to a reference backend started with --admin-token.", valueName: "token"))
    var adminToken: String?

    private var selection: Selection {
        func split(_ names: [String]) -> [String] {
            names.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        }
        return Selection(only: split(only), skip: split(skip))
    }

    func validate() throws {
        guard let url = URL(string: backend), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil
        else { throw ValidationError("--backend takes an http:// or https:// URL, not '\(backend)'") }
        let unknown = selection.unknownNames
        guard unknown.isEmpty else {
            throw ValidationError(
                "no rule or family named \(unknown.map { "'\($0)'" }.joined(separator: ", ")) (see docs/RULES.md)")
        }
        guard phonePrefix.hasPrefix("+"), phonePrefix.dropFirst().allSatisfy(\.isNumber) else {
            throw ValidationError("--phone-prefix takes + and digits, such as +99559")
        }
        _ = try fixtures()
    }

    /// `--fixture-accounts`, read and checked; a file that does not read is a usage error naming what is wrong.
    private func fixtures() throws -> FixtureAccounts {
        guard let fixtureAccounts else { return FixtureAccounts() }
        guard let data = FileManager.default.contents(atPath: fixtureAccounts) else {
            throw ValidationError("--fixture-accounts: cannot read \(fixtureAccounts)")
        }
        do {
            return try FixtureAccounts(json: data)
        } catch {
            throw ValidationError("--fixture-accounts \(fixtureAccounts): \(error.description)")
        }
    }

    func run() async throws {
        let server = ConformHTTP(baseURL: backend, adminToken: adminToken)
        var reference = await ReferenceAdmin.detect(server)
        // On a reference backend that serves worlds the run has one of its own, deleted afterwards, unless the
        // URL names a world: then it runs there, as asked.
        let world = reference == nil ? nil : await ConformWorld.open(server)
        if let world { reference = reference?.inWorld(world) }
        let http = world?.http ?? server
        let messages: any MessageSource =
            if let inbox { InboxCommandSource(command: inbox) } else if reference != nil {
                OutboxSource(http: http)
            } else { TypedSource() }
        var settings = ConformSettings()
        settings.waitLong = waitLong
        settings.account = account
        settings.fixtures = try fixtures()
        settings.phonePrefix = phonePrefix
        settings.emailDomain = emailDomain
        let runner = ConformRunner(http: http, messages: messages, reference: reference, settings: settings)
        let stderr = FileHandle.standardError
        let kind =
            if reference == nil { "another backend" } else if let world {
                "the reference backend, in a world of its own: \(world.name)"
            } else { "the reference backend" }
        stderr.write(Data("accessdeck conform: \(backend) (\(kind)); codes and links from \(messages.name)\n".utf8))
        let progress = ProgressLine(enabled: isatty(STDERR_FILENO) == 1)
        let run = await runner.run(selection) { done, total, rule in
            progress.show("[\(done + 1)/\(total)] \(rule.rawValue)")
        }
        progress.clear()
        if let world, let note = await world.close() { stderr.write(Data("accessdeck conform: \(note)\n".utf8)) }
        await server.shutdown()
        print(ConformReport.text(run), terminator: "")
        if let junit {
            do {
                try Data(ConformReport.junit(run).utf8).write(to: URL(fileURLWithPath: junit))
            } catch {
                throw RuntimeError("could not write \(junit): \(error.localizedDescription)")
            }
        }
        if run.brokenCount > 0 { throw ExitCode(1) }
    }
}

/// One line on stderr, rewritten in place on a terminal, one line per check otherwise.
struct ProgressLine: Sendable {
    let enabled: Bool

    func show(_ text: String) {
        FileHandle.standardError.write(Data((enabled ? "\r\u{1B}[K" + text : text + "\n").utf8))
    }

    func clear() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
