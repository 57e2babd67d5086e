import AccessAPI
import AccessCore
import Foundation
import Synchronization
import TerminalKit

/// What a replay needs from outside the app: the backend's clock, requests answered, and the outbox.
public protocol ReplayBackend: Sendable {
    /// The backend's time, which is the app's clock.
    func now() -> Date
    func perform(_ request: AnyRequest, now: Date) async -> Result<Answer, APIError>
    func signOutLocally() async
    func advanceClock(by seconds: TimeInterval) async throws
    /// The newest code sent to `recipient` that still works; nil when there is none.
    func newestLiveCode(to recipient: String) async throws -> String?
    /// The authenticator app's code now for the scenario's user, who has two-factor on.
    func currentAuthenticatorCode() async throws -> String
    /// The backend's journal, oldest first, filtered by the backend (`GET /_admin/journal`), for a tape's
    /// `expect-request` and `expect-no-request`.
    func journal(_ filter: JournalFilter, limit: Int) async throws -> [JournalEntry]
    /// The password scenario `name`'s user has in its fixture, for `secret scenario`; nil when it has none.
    func scenarioPassword(_ name: String) -> Secret?
}

extension ReplayBackend {
    /// What a tape's `code` step types into `entry`: the newest live code sent to the code boxes'
    /// destination, or an authenticator app's code on the backend's clock (a set-up's from its pending secret).
    /// Throws a `TapeFailure` (line 0) that says why there is none.
    public func codeToType(into entry: SecretEntry?) async throws -> String {
        let found: String?
        do {
            switch entry {
            case .code(let recipient)?:
                found = try await newestLiveCode(to: recipient)
                if found == nil { throw TapeFailure(line: 0, message: "code: no live code was sent to \(recipient)") }
            case .authenticator(let setupSecret?)?:
                found = TOTP(base32: setupSecret.value)?.code(at: now())
            case .authenticator(nil)?:
                found = try await currentAuthenticatorCode()
            case .password?, nil:
                throw TapeFailure(line: 0, message: "code: the code boxes are not on screen")
            }
        } catch let failure as TapeFailure {
            throw failure
        } catch {
            throw TapeFailure(line: 0, message: "code: the backend could not say it (\(error))")
        }
        guard let found else {
            throw TapeFailure(line: 0, message: "code: the set-up's key is not an authenticator key")
        }
        return found
    }
}

/// The reference backend over HTTP: requests through the app's own `ClientPerformer`, the clock
/// moved with `POST /_admin/clock/advance`, codes read from `GET /_admin/outbox`.
public struct ReferenceReplayBackend: ReplayBackend {
    let performer: ClientPerformer
    let clock: any AppClock

    /// The fixtures' passwords (`accessdeck` reads them from fixtures/scenarios; the app knows no fixture).
    let passwords: @Sendable (String) -> Secret?

    public init(
        performer: ClientPerformer, clock: any AppClock,
        passwords: @escaping @Sendable (String) -> Secret? = { _ in nil }
    ) {
        self.performer = performer
        self.clock = clock
        self.passwords = passwords
    }

    public func scenarioPassword(_ name: String) -> Secret? { passwords(name) }

    public func now() -> Date { clock.now() }

    public func perform(_ request: AnyRequest, now: Date) async -> Result<Answer, APIError> {
        await performer.perform(request, now: now)
    }

    public func signOutLocally() async { await performer.signOutLocally() }

    public func advanceClock(by seconds: TimeInterval) async throws {
        _ = try await performer.client.adminAdvanceClock(seconds: seconds)
    }

    public func newestLiveCode(to recipient: String) async throws -> String? {
        try await performer.client.newestLiveCode(to: recipient)
    }

    public func currentAuthenticatorCode() async throws -> String {
        try await performer.client.adminTwoFactorCode().code
    }

    public func journal(_ filter: JournalFilter, limit: Int) async throws -> [JournalEntry] {
        try await performer.client.adminJournal(
            limit: limit, path: filter.path, method: filter.method, status: filter.status?.description,
            rule: filter.rule, user: filter.user, since: filter.since, until: filter.until)
    }
}

/// No backend: every request is answered offline, and time is the replay's own.
public final class OfflineReplayBackend: ReplayBackend {
    private let time: Mutex<Date>

    public init(now: Date) { time = Mutex(now) }

    public func now() -> Date { time.withLock { $0 } }

    public func perform(_ request: AnyRequest, now: Date) async -> Result<Answer, APIError> {
        .failure(.offline(reason: "no backend"))
    }

    public func signOutLocally() async {}

    public func advanceClock(by seconds: TimeInterval) async throws { time.withLock { $0 += seconds } }

    public func newestLiveCode(to recipient: String) async throws -> String? {
        throw TapeFailure(line: 0, message: "a code step needs the reference backend (drop --no-backend)")
    }

    public func currentAuthenticatorCode() async throws -> String {
        throw TapeFailure(line: 0, message: "a code step needs the reference backend (drop --no-backend)")
    }

    public func journal(_ filter: JournalFilter, limit: Int) async throws -> [JournalEntry] {
        throw TapeFailure(line: 0, message: "a request expectation needs the reference backend (drop --no-backend)")
    }

    public func scenarioPassword(_ name: String) -> Secret? { nil }
}

/// Why a replay stopped: a failed `expect`, or a step that could not be done.
public struct TapeFailure: Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    /// The `expect` or `expect-not` that failed, for the report beside the screen (`ExpectReport`).
    public var check: Tape.Step?
    public var description: String { "line \(line): \(message)" }

    public init(line: Int, message: String, check: Tape.Step? = nil) {
        self.line = line
        self.message = message
        self.check = check
    }
}

/// Replays a tape headless against a backend, deterministically: after every step the requests
/// the app asked for are performed one by one and their replies fed back until none is left, and
/// `wait` moves the backend's clock from timer to timer, so nothing depends on real time.
public struct TapeReplay {
    public private(set) var runtime: HeadlessRuntime
    let backend: any ReplayBackend
    /// A reply that asks again, forever, must not hang a replay.
    static let maximumEffectsPerStep = 10_000

    public init(state: AppState, size: Size, backend: any ReplayBackend) {
        var start = state
        start.now = backend.now()
        runtime = HeadlessRuntime(state: start, size: size)
        self.backend = backend
    }

    public var screen: CellGrid { runtime.screen }

    /// Replays every step. `onScreen` gets a caption and the screen at each `screen` step (and after
    /// every step with `everyStep`); `afterStep` gets every step performed, the runtime after it, and
    /// whether it was the last step of its tape line. Throws at the first `expect` that fails or step
    /// that cannot run.
    public mutating func play(
        _ tape: Tape, everyStep: Bool = false,
        afterStep: (Tape.Entry, HeadlessRuntime, _ lineDone: Bool) -> Void = { _, _, _ in },
        onScreen: (String, CellGrid) -> Void
    ) async throws {
        for (index, entry) in tape.steps.enumerated() {
            guard !runtime.quit else { break }
            let intoSecret = runtime.state.secretEntry != nil
            try await perform(entry)
            let next = tape.steps.index(after: index)
            afterStep(entry, runtime, next == tape.steps.endIndex || tape.steps[next].line != entry.line)
            if entry.step == .screen {
                onScreen("line \(entry.line)", runtime.printedScreen)
            } else if everyStep {
                onScreen("line \(entry.line): \(entry.step.caption(intoSecret: intoSecret))", runtime.printedScreen)
            }
        }
    }

    public mutating func perform(_ entry: Tape.Entry) async throws {
        let fail = { (message: String) in TapeFailure(line: entry.line, message: message) }
        switch entry.step {
        case .input(let event): try await send(.input(event), line: entry.line)
        case .wait(let seconds): try await wait(seconds, line: entry.line)
        case .screen: break
        case .expect, .expectNot, .expectTitle, .expectRow, .expectRequest, .expectNoRequest:
            let frame = renderFrame(runtime.state, size: runtime.size)
            if let failure = await Self.failure(of: entry, on: frame, backend: backend) { throw failure }
        case .clock(let move): try await send(.moveClock(move), line: entry.line)
        case .scenario(let name): try await send(.switchScenario(name), line: entry.line)
        case .fault(let words):
            guard case .script(let script) = FaultScript.parse(words) else { throw fail("fault: \(words)") }
            try await send(.setFaults(script.settings, label: "Fault on: \(script.title)"), line: entry.line)
        case .code:
            let code: String
            do {
                code = try await backend.codeToType(into: runtime.state.secretEntry)
            } catch let failure as TapeFailure {
                throw fail(failure.message)
            }
            for digit in code { try await send(.input(.key(.character(digit))), line: entry.line) }
        case .scenarioPassword:
            let password = try Self.scenarioPassword(on: runtime.state, backend: backend, line: entry.line)
            for character in password.value { try await send(.input(.key(.character(character))), line: entry.line) }
        }
    }

    /// What `secret scenario` types: the password of the scenario the app is on, into a password field.
    public static func scenarioPassword(on state: AppState, backend: any ReplayBackend, line: Int) throws -> Secret {
        guard state.secretEntry == .password else {
            throw TapeFailure(line: line, message: "secret scenario: no password field has the focus")
        }
        guard let scenario = state.console.scenario, let password = backend.scenarioPassword(scenario) else {
            throw TapeFailure(
                line: line, message: "secret scenario: the scenario's user has no password in its fixture")
        }
        return password
    }

    /// Sends the action on the backend's time, then settles.
    public mutating func send(_ action: Action, line: Int = 0) async throws {
        runtime.follow(backend.now())
        runtime.send(action)
        try await settle(line: line)
    }

    /// Performs what the app asked for, in order, feeding each reply back, until nothing is left.
    mutating func settle(line: Int) async throws {
        var pending = runtime.takeExternalEffects()
        var performed = 0
        while !pending.isEmpty {
            performed += 1
            guard performed <= Self.maximumEffectsPerStep else {
                throw TapeFailure(
                    line: line, message: "the app kept asking the backend (\(Self.maximumEffectsPerStep) requests)")
            }
            switch pending.removeFirst() {
            case .request(let request, let id):
                let result = await backend.perform(request, now: backend.now())
                runtime.follow(backend.now())
                runtime.send(.response(id, result))
            case .signOutLocally:
                await backend.signOutLocally()
            default:
                // Nothing to copy to or open headless.
                break
            }
            pending += runtime.takeExternalEffects()
        }
    }

    /// Moves the backend's clock by `seconds`, stopping at each timer's deadline to fire it and settle.
    mutating func wait(_ seconds: TimeInterval, line: Int) async throws {
        let end = runtime.state.now + seconds
        while let deadline = runtime.nextDeadline, deadline <= end {
            try await moveClock(to: deadline, line: line)
        }
        try await moveClock(to: end, line: line)
    }

    private mutating func moveClock(to date: Date, line: Int) async throws {
        let step = date.timeIntervalSince(backend.now())
        if step > 0 {
            do {
                try await backend.advanceClock(by: step)
            } catch {
                throw TapeFailure(line: line, message: "wait: the backend's clock could not be moved (\(error))")
            }
        }
        // The backend's clock may not land exactly on the deadline: the timer fires either way.
        runtime.follow(max(date, backend.now()))
        try await settle(line: line)
    }

    /// Why a check step fails on this frame, nil when it holds: shared by `play` and `play --live`.
    public static func failure(
        of entry: Tape.Entry, on frame: RenderedFrame, backend: any ReplayBackend
    ) async -> TapeFailure? {
        let check = { (message: String) in TapeFailure(line: entry.line, message: message, check: entry.step) }
        switch entry.step {
        case .expect(let text):
            return frame.grid.text().contains(text) ? nil : check("expected \(quoted(text))")
        case .expectNot(let text):
            return frame.grid.text().contains(text) ? check("did not expect \(quoted(text))") : nil
        case .expectTitle(let text):
            guard frame.screenTitle?.contains(text) == true else {
                let title = frame.screenTitle.map { "the title is \(quoted($0))" } ?? "this screen has no title"
                return check("expected the title \(quoted(text)); \(title)")
            }
            return nil
        case .expectRow(let text):
            guard frame.rowTexts.contains(where: { $0.contains(text) }) else {
                let rows = frame.rowTexts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                return check(
                    "expected a row \(quoted(text)); "
                        + (rows.isEmpty
                            ? "no list rows are drawn" : "the rows are " + rows.map(quoted).joined(separator: ", ")))
            }
            return nil
        case .expectRequest(let expected):
            let call = "\(expected.method) \(expected.path) \(expected.status)"
            let times = expected.times.map { $0 == 1 ? "once" : "\($0) times" } ?? "at least once"
            return await requestFailure(
                line: entry.line, filter: expected.filter, wanted: expected.times, expected: "\(call) \(times)",
                backend: backend)
        case .expectNoRequest(let path):
            return await requestFailure(
                line: entry.line, filter: JournalFilter(path: path), wanted: 0, expected: "no request to \(path)",
                backend: backend)
        default:
            return nil
        }
    }

    /// The journal's rows a failed request expectation shows: the newest to its path, or else the newest of all.
    static let rowsShown = 10

    /// `wanted` nil: at least one. The failure lists the journal's rows it saw, so a wrong turn shows as the calls
    /// that were made instead.
    private static func requestFailure(
        line: Int, filter: JournalFilter, wanted: Int?, expected: String, backend: any ReplayBackend
    ) async -> TapeFailure? {
        do {
            let found = try await backend.journal(filter, limit: RequestBounds.journalCapacity).count
            if let wanted, found == wanted { return nil }
            if wanted == nil, found > 0 { return nil }
            var seen = try await backend.journal(JournalFilter(path: filter.path), limit: rowsShown)
            var heading = "the journal's newest requests to \(filter.path ?? "/*"):"
            if seen.isEmpty {
                // The checks' own reads of the journal are no part of what the tape did.
                seen = Array(
                    try await backend.journal(JournalFilter(), limit: RequestBounds.journalCapacity)
                        .filter { !$0.path.hasPrefix(ContractOperation.adminJournal.route.path) }.suffix(rowsShown))
                heading = "none to \(filter.path ?? "/*"); the journal's newest requests:"
            }
            let message =
                "expected \(expected); the journal has \(found)\n  \(heading)"
                + (seen.isEmpty ? "\n    (none)" : seen.map { "\n    " + journalRow($0) }.joined())
            return TapeFailure(line: line, message: message)
        } catch let failure as TapeFailure {
            return TapeFailure(line: line, message: failure.message)
        } catch {
            return TapeFailure(
                line: line, message: "expected \(expected): the backend's journal could not be read (\(error))")
        }
    }

    /// "#12 10:42:07 POST /auth/phone/verify-otp 422 otp.wrong_code usr_athlete".
    static func journalRow(_ entry: JournalEntry) -> String {
        let style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
        return ["#\(entry.id)", entry.at.formatted(style), entry.method, entry.path, String(entry.status), entry.rule]
            .joined(separator: " ") + (entry.user.map { " " + $0 } ?? "")
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
