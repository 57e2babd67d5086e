import Foundation
import TerminalKit

/// Where typing goes when what is typed must never reach a tape, a log or a snapshot.
public enum SecretEntry: Equatable, Sendable {
    case password
    /// The code boxes of a code sent to `recipient` (E.164, or the address of an emailed code).
    case code(recipient: String)
    /// The code boxes of an authenticator app's code: for a set-up, its pending secret (masked in every dump);
    /// nil for an account that has two-factor on, whose code the reference backend's admin API shows.
    case authenticator(setupSecret: Secret?)
}

extension AppState {
    /// Where a key pressed now would be typed, when that is a secret: an open overlay takes the keys
    /// itself, so only the bare screen counts.
    public var secretEntry: SecretEntry? { overlay == nil ? top.base.secretEntry : nil }
}

/// Turns a live session into tape lines as it happens (`accessdeck run --record FILE`): keys by
/// name, runs of printable characters as one `type`, pauses of a second or more as `wait`, and
/// never what goes into a password field or the code boxes (`secret`, `code`).
public struct TapeRecorder {
    /// The shortest pause written down: shorter ones are typing speed, not waiting.
    public static let shortestPause: TimeInterval = 1
    /// Typed characters held for one `type` line at most: a key held down for minutes is written as it
    /// goes, in lines of this length, instead of piling up in memory until another event.
    public static let longestTypeLine = 200

    private var lastEventAt: Date
    private var pendingText = ""
    /// Characters typed into a secret entry since the last other event: one line stands for them.
    private var pendingSecret: SecretEntry?
    /// What went into a password field meanwhile, held only to compare with the scenario's password and never
    /// written: that password is written as `secret scenario`, which a replay can type again; any other as `secret`.
    private var pendingPassword = Secret("")
    private var scenarioPassword: Secret?

    public init(startedAt: Date) { lastEventAt = startedAt }

    /// The first lines of a tape: where it came from, the terminal's size, the scenario and the `--start-at` state.
    public static func header(
        recordedAt: Date, version: String, scenario: String?, size: Size, startAt: String? = nil
    ) -> [String] {
        let date = ISO8601DateFormatter().string(from: recordedAt)
        var lines = [
            "# Recorded with `accessdeck run --record` (accessdeck \(version)) on \(date)"
                + (scenario.map { ", scenario \($0)" } ?? "") + ".",
            "size \(size.cols)x\(size.rows)",
        ]
        if let scenario { lines.append("scenario \(scenario)") }
        if let startAt { lines.append("start-at \(startAt)") }
        return lines
    }

    /// The lines this event completes (typed text is held until something else happens). `entry`
    /// is where the event goes, read from the state before it is applied; `scenarioPassword` the password of the
    /// scenario's user in its fixture (the embedded backend's), when there is one.
    public mutating func record(
        _ event: InputEvent, at time: Date, into entry: SecretEntry?, scenarioPassword: Secret? = nil
    ) -> [String] {
        var lines: [String] = []
        let pause = time.timeIntervalSince(lastEventAt)
        lastEventAt = time
        if pause >= Self.shortestPause {
            lines += finishPending()
            lines.append("wait \(Self.format(pause))")
        }
        if let secret = Self.secretTarget(of: event, entry) {
            if pendingSecret != secret { lines += finishPending() }
            pendingSecret = secret
            if secret == .password {
                self.scenarioPassword = scenarioPassword
                switch event {
                case .key(.character(let character)):
                    pendingPassword = Secret(pendingPassword.value + String(character))
                case .paste(let text): pendingPassword = Secret(pendingPassword.value + text)
                default: break
                }
            }
        } else if case .key(.character(let character)) = event, Self.isPrintable(character) {
            if pendingSecret != nil { lines += finishPending() }
            pendingText.append(character)
            if pendingText.count >= Self.longestTypeLine { lines += finishPending() }
        } else {
            lines += finishPending()
            lines.append(Self.line(for: event))
        }
        return lines
    }

    /// Whatever is still held, when the session ends.
    public mutating func finish() -> [String] { finishPending() }

    /// The whole tape for a list of events: what `record` writes bit by bit, in one go.
    public static func lines(
        startedAt: Date, events: [(event: InputEvent, at: Date, entry: SecretEntry?)]
    ) -> [String] {
        var recorder = TapeRecorder(startedAt: startedAt)
        var lines: [String] = []
        for item in events { lines += recorder.record(item.event, at: item.at, into: item.entry) }
        return lines + recorder.finish()
    }

    private mutating func finishPending() -> [String] {
        var lines: [String] = []
        if !pendingText.isEmpty { lines.append("type \(Tape.quotedIfNeeded(pendingText))") }
        switch pendingSecret {
        case .password:
            let isScenarios = scenarioPassword.map { !$0.value.isEmpty && $0 == pendingPassword } ?? false
            lines.append(isScenarios ? "secret scenario" : "secret")
        case .code, .authenticator: lines.append("code")
        case nil: break
        }
        pendingText = ""
        pendingSecret = nil
        pendingPassword = Secret("")
        scenarioPassword = nil
        return lines
    }

    /// The secret this event's text goes into, if any. The code boxes take digits only: another
    /// letter there is a shortcut (`r` resends, `h` helps), written as itself.
    private static func secretTarget(of event: InputEvent, _ entry: SecretEntry?) -> SecretEntry? {
        switch (event, entry) {
        case (.paste, let entry?): return entry
        case (.key(.character(let character)), .code?), (.key(.character(let character)), .authenticator?):
            return character.isASCII && character.isNumber ? entry : nil
        case (.key(.character), .password?): return .password
        default: return nil
        }
    }

    static func line(for event: InputEvent) -> String {
        switch event {
        case .key(let key): return "key \(Tape.name(of: key))"
        case .paste(let text): return "paste \(Tape.quotedIfNeeded(text))"
        case .resize(let size): return "resize \(size.cols)x\(size.rows)"
        case .mouse(let mouse):
            let verb: String
            switch mouse.kind {
            case .leftClick: verb = "click"
            case .wheelUp: verb = "wheel-up"
            case .wheelDown: verb = "wheel-down"
            }
            return "\(verb) \(mouse.point.x) \(mouse.point.y)"
        }
    }

    private static func isPrintable(_ character: Character) -> Bool {
        !character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Seconds to a tenth, without a trailing ".0".
    static func format(_ seconds: TimeInterval) -> String {
        let tenths = (seconds * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))" : "\(tenths / 10)"
    }
}
