import ChildProcess
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a check reads off a phone or a mailbox: the newest code, or the newest link's token.
public enum MessageKind: Sendable {
    case code
    case link
}

/// Where the codes and links a backend sends come from. Whatever it returns is a secret: checks use it in
/// requests only, never in what they print.
public protocol MessageSource: Sendable {
    /// For the output: "the reference backend's outbox", "--inbox", "typed".
    var name: String { get }
    /// The newest code or link token sent to `destination`. Throws `CheckStop.skipped` when this source cannot
    /// give one at all, `CheckStop.cannotTell` when it found none.
    func latest(_ kind: MessageKind, to destination: String) async throws -> String
    /// Why it can give nothing at all in this run (nil: it can), so checks that need it are skipped up front.
    var unavailable: String? { get }
}

extension MessageSource {
    public var unavailable: String? { nil }
}

/// A link's token: the `token` query parameter of a link, else its last path segment (`…/verify/TOKEN`: the
/// contract leaves a link's shape to the backend), or the whole text when it is a bare token.
func linkToken(_ text: String) -> String {
    guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
        scheme == "http" || scheme == "https", components.host != nil
    else { return text }
    if let token = components.queryItems?.first(where: { $0.name == "token" })?.value { return token }
    return components.path.split(separator: "/").last.map(String.init) ?? text
}

/// The reference backend's outbox (`GET /_admin/outbox`), which holds every code and link it sent.
public struct OutboxSource: MessageSource {
    let http: ConformHTTP
    public var name: String { "the reference backend's outbox" }

    public init(http: ConformHTTP) { self.http = http }

    public func latest(_ kind: MessageKind, to destination: String) async throws -> String {
        let exchange = try await http.get("/_admin/outbox")
        guard exchange.status == 200,
            let messages = (try? JSONSerialization.jsonObject(with: exchange.body)) as? [[String: Any]]
        else { throw CheckStop.cannotTell("GET /_admin/outbox answered \(exchange.summary)") }
        let wanted = destination.lowercased()
        for message in messages.reversed() where (message["to"] as? String)?.lowercased() == wanted {
            switch kind {
            case .code: if let code = message["code"] as? String { return code }
            case .link:
                if let token = message["token"] as? String { return token }
                if let link = message["link"] as? String { return linkToken(link) }
            }
        }
        throw CheckStop.cannotTell("the outbox has no \(kind == .code ? "code" : "link") for \(destination)")
    }
}

/// `--inbox CMD`: runs `CMD DESTINATION` through /bin/sh; the last non-empty line it prints is the code or
/// the link (a team's SMS test inbox, a Mailpit query: docs/command-line.md).
public struct InboxCommandSource: MessageSource {
    let command: String
    public var name: String { "--inbox" }

    public init(command: String) { self.command = command }

    public func latest(_ kind: MessageKind, to destination: String) async throws -> String {
        let outcome: ChildProcess.Outcome
        do {
            // The destination as "$1", never spliced into the command's text.
            outcome = try ChildProcess.run(
                "/bin/sh", ["-c", command + " \"$1\"", "inbox", destination], within: .seconds(30))
        } catch {
            throw CheckStop.cannotTell("--inbox could not be started: \(error)")
        }
        guard outcome.status == 0 else {
            throw CheckStop.cannotTell("--inbox exited with status \(outcome.status) for \(destination)")
        }
        let lines = String(decoding: outcome.output, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let last = lines.last else { throw CheckStop.cannotTell("--inbox printed nothing for \(destination)") }
        return kind == .link ? linkToken(last) : last
    }
}

/// The person running conform types each code or link, asked on stderr; only when stdin is a terminal.
public struct TypedSource: MessageSource {
    public var name: String { "typed" }
    let isTerminal: Bool

    public init(isTerminal: Bool = isatty(STDIN_FILENO) == 1) { self.isTerminal = isTerminal }

    public var unavailable: String? { isTerminal ? nil : ConformFrontEnd.commandLine.needsMessages }

    public func latest(_ kind: MessageKind, to destination: String) async throws -> String {
        guard isTerminal else { throw CheckStop.skipped(ConformFrontEnd.commandLine.needsMessages) }
        FileHandle.standardError.write(
            Data("\nType the \(kind == .code ? "code" : "link") sent to \(destination): ".utf8))
        guard let line = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
            throw CheckStop.skipped("nothing was typed for \(destination)")
        }
        return kind == .link ? linkToken(line) : line
    }
}

/// No way to read what a backend sends: every check that needs a code or a link is skipped, saying in
/// `frontEnd`'s words what the person can do (the app's palette against another backend).
public struct NoMessageSource: MessageSource {
    let frontEnd: ConformFrontEnd
    public var name: String { "none" }

    public init(frontEnd: ConformFrontEnd) { self.frontEnd = frontEnd }

    public var unavailable: String? { frontEnd.needsMessages }

    public func latest(_ kind: MessageKind, to destination: String) async throws -> String {
        throw CheckStop.skipped(frontEnd.needsMessages)
    }
}
