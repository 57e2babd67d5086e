import AccessCore
import Foundation
import TerminalKit

/// A recorded session: what a person typed and how long they waited, replayed by `accessdeck play`
/// against the reference backend, with the checks that make it a regression test. One step a line;
/// a line starting with `#` is a comment. See fixtures/tapes/README.md.
public struct Tape: Equatable, Sendable {
    public enum Step: Equatable, Sendable {
        case input(InputEvent)
        case wait(seconds: TimeInterval)
        case screen
        /// The screen, as text, contains this.
        case expect(String)
        case expectNot(String)
        /// The top screen's title holds this (`expect title "Account access"`): a Settings row with the same words
        /// does not pass it, so a wrong turn fails where it happens (issue 51 item 2).
        case expectTitle(String)
        /// One list row drawn, the screen's or the open panel's, holds this (`expect row "Phone number"`).
        case expectRow(String)
        /// The backend's journal has this request (`expect-request POST /auth/phone/verify-otp 200 [times N]`).
        case expectRequest(RequestExpectation)
        /// The backend's journal has no request to this path (a prefix with `*`).
        case expectNoRequest(path: String)
        /// Moves the reference backend's clock, as the palette's Clock commands do.
        case clock(ClockMove)
        /// Switches the reference backend's scenario while the app runs, as the palette does.
        case scenario(String)
        /// Sets the reference backend's faults as the palette's `fault` words do (`FaultScript`): the words.
        case fault(String)
        /// Types the newest live code the backend sent to the code boxes' recipient (a recorded
        /// tape never holds the code itself).
        case code
        /// `secret scenario`: types the scenario user's password from its fixture, where the recording saw the
        /// person type exactly that password (a tape never holds a password; issue 51 item 5).
        case scenarioPassword
    }

    /// `expect-request METHOD PATH STATUS [times N]`: the requests of the whole replay so far, read from the
    /// reference backend's journal with its filters (`JournalFilter`). Without `times`, at least one.
    public struct RequestExpectation: Equatable, Sendable {
        public var method: String
        /// Exact, or a prefix with a trailing `*`.
        public var path: String
        public var status: JournalFilter.Status
        public var times: Int?

        public var filter: JournalFilter { JournalFilter(path: path, method: method, status: status) }

        /// "POST /auth/phone/verify-otp 200 times 2", as the tape writes it.
        public var words: String {
            "\(method) \(path) \(status)" + (times.map { " times \($0)" } ?? "")
        }
    }

    /// A step and the tape line it came from, for error messages and `--dump` captions.
    public struct Entry: Equatable, Sendable {
        public var line: Int
        public var step: Step
    }

    public var size: Size
    /// The scenario named before the first step: the backend starts on it.
    public var scenario: String?
    /// `start-at SCREEN[:STATE]` before the first step: the gallery id the replay starts at, reached by its road's
    /// backend calls (`StartAt`), once the app has started.
    public var startAt: String?
    public var steps: [Entry]

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    static let stepNames =
        "size, resize, key, type, paste, wait, click, wheel-up, wheel-down, screen, expect, expect-not, "
        + "expect-request, expect-no-request, clock, scenario, start-at, fault, code, secret scenario"

    public init(parsing text: String) throws {
        size = .standard
        steps = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            // Only a whole line is a comment, so `type #1` and `expect "a # b"` keep their `#`.
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let verb = words.first, !verb.hasPrefix("#") else { continue }
            let rest = String(line.drop { $0 == " " }.dropFirst(verb.count).drop { $0 == " " })
            func fail(_ message: String) -> ParseError { ParseError(line: lineNumber, message: message) }
            func text(_ what: String) throws -> String {
                guard let value = Tape.unquote(rest) else {
                    throw fail("\(what): the text's closing quote must end the line")
                }
                guard !value.isEmpty else { throw fail("\(what) needs text") }
                return value
            }
            switch verb {
            case "size":
                guard words.count == 2, let parsed = Size(parsing: String(words[1])) else {
                    throw fail("size takes COLSxROWS, such as 80x24")
                }
                if steps.isEmpty {
                    size = parsed
                } else {
                    steps.append(Entry(line: lineNumber, step: .input(.resize(parsed))))
                }
            case "resize":
                guard words.count == 2, let parsed = Size(parsing: String(words[1])) else {
                    throw fail("resize takes COLSxROWS, such as 30x8")
                }
                steps.append(Entry(line: lineNumber, step: .input(.resize(parsed))))
            case "key":
                guard words.count == 2 || words.count == 3 else {
                    throw fail("key takes a key name and an optional count")
                }
                guard let key = Tape.key(named: String(words[1])) else { throw fail("unknown key '\(words[1])'") }
                let count = words.count == 3 ? Int(words[2]) : 1
                guard let count, (1...1000).contains(count) else { throw fail("the count must be 1 to 1000") }
                steps.append(contentsOf: repeatElement(Entry(line: lineNumber, step: .input(.key(key))), count: count))
            case "type":
                steps.append(
                    contentsOf: try text("type").map { Entry(line: lineNumber, step: .input(.key(.character($0)))) })
            case "click", "wheel-up", "wheel-down":
                guard words.count == 3, let column = Int(words[1]), let row = Int(words[2]), column >= 0, row >= 0
                else { throw fail("\(verb) takes a column and a row, from 0: \(verb) 12 4") }
                let kind: MouseEvent.Kind = verb == "click" ? .leftClick : verb == "wheel-up" ? .wheelUp : .wheelDown
                steps.append(
                    Entry(line: lineNumber, step: .input(.mouse(MouseEvent(kind, at: Point(x: column, y: row))))))
            case "paste":
                guard let value = Tape.unquote(rest) else {
                    throw fail("paste: the text's closing quote must end the line")
                }
                steps.append(Entry(line: lineNumber, step: .input(.paste(value))))
            case "wait":
                guard words.count == 2, let seconds = TimeInterval(words[1].replacingOccurrences(of: "s", with: "")),
                    seconds >= 0, seconds <= 86_400 * 7
                else { throw fail("wait takes seconds, such as 3 or 0.5") }
                steps.append(Entry(line: lineNumber, step: .wait(seconds: seconds)))
            case "screen":
                steps.append(Entry(line: lineNumber, step: .screen))
            case "expect":
                // `expect title "…"` and `expect row "…"` are anchored; any other text is looked for anywhere.
                if words.count >= 3, let anchor = words.dropFirst().first, anchor == "title" || anchor == "row" {
                    let anchored = String(rest.dropFirst(anchor.count).drop { $0 == " " })
                    guard let value = Tape.unquote(anchored), !value.isEmpty else {
                        throw fail("expect \(anchor): the text's closing quote must end the line")
                    }
                    steps.append(
                        Entry(line: lineNumber, step: anchor == "title" ? .expectTitle(value) : .expectRow(value)))
                } else {
                    steps.append(Entry(line: lineNumber, step: .expect(try text("expect"))))
                }
            case "expect-request":
                let usage =
                    "expect-request takes METHOD PATH STATUS [times N]: expect-request GET /me/* 4xx times 2"
                guard words.count == 4 || words.count == 6, words[1].allSatisfy({ $0.isASCII && $0.isLetter }),
                    words[2].hasPrefix("/"), let status = JournalFilter.Status(String(words[3]))
                else { throw fail(usage) }
                var times: Int?
                if words.count == 6 {
                    guard words[4] == "times", let count = Int(words[5]),
                        (0...RequestBounds.journalCapacity).contains(count)
                    else { throw fail(usage) }
                    times = count
                }
                steps.append(
                    Entry(
                        line: lineNumber,
                        step: .expectRequest(
                            RequestExpectation(
                                method: words[1].uppercased(), path: String(words[2]), status: status, times: times))))
            case "expect-no-request":
                guard words.count == 2, words[1].hasPrefix("/") else {
                    throw fail("expect-no-request takes a PATH, exact or ending in *: expect-no-request /auth/phone/*")
                }
                steps.append(Entry(line: lineNumber, step: .expectNoRequest(path: String(words[1]))))
            case "expect-not":
                steps.append(Entry(line: lineNumber, step: .expectNot(try text("expect-not"))))
            case "clock":
                let amount = words.dropFirst().joined(separator: " ")
                if let problem = ClockMove.unitMissing(amount) { throw fail("clock \(problem)") }
                guard let move = ClockMove.parse(amount) else {
                    throw fail("clock takes +30s, +5m, +2h, +1d, next or a UTC time such as 2026-12-01T09:00")
                }
                // A replay's clock stands still between steps: that is what makes it replay the same.
                if case .frozen = move { throw fail("a tape's clock is frozen already; use wait or clock +N") }
                steps.append(Entry(line: lineNumber, step: .clock(move)))
            case "scenario":
                guard words.count == 2 else { throw fail("scenario takes one name, such as taken-number") }
                let name = String(words[1])
                if steps.isEmpty, scenario == nil {
                    scenario = name
                } else {
                    steps.append(Entry(line: lineNumber, step: .scenario(name)))
                }
            case "start-at":
                guard words.count == 2 else { throw fail("start-at takes one screen, such as enter-code") }
                guard steps.isEmpty, startAt == nil else {
                    throw fail("start-at goes before the first step: the replay starts there")
                }
                switch StartAt.resolve(String(words[1])) {
                case .success(let id): startAt = id
                case .failure(let problem): throw fail("start-at: \(problem)")
                }
            case "fault":
                switch FaultScript.parse(rest) {
                case .script: steps.append(Entry(line: lineNumber, step: .fault(rest)))
                case .problem(let problem): throw fail("fault: \(problem)")
                case .incomplete:
                    throw fail(
                        "fault takes a path (or *) and a fault, such as fault /me/auth-methods 429 x1 then 500 x2")
                }
            case "code":
                guard words.count == 1 else { throw fail("code takes nothing: it types the newest live code") }
                steps.append(Entry(line: lineNumber, step: .code))
            case "secret":
                if words.count == 2, words[1] == "scenario" {
                    steps.append(Entry(line: lineNumber, step: .scenarioPassword))
                } else {
                    throw fail("a password was typed here; replace this line with `type …` to replay it")
                }
            default:
                throw fail("unknown step '\(verb)'; steps are \(Tape.stepNames)")
            }
        }
    }

    /// Text as written, or inside double quotes with `\"`, `\\`, `\n` and `\t` (for text that starts
    /// or ends with a space, or holds a line break). nil: a quote was opened and never closed.
    static func unquote(_ text: String) -> String? {
        guard text.first == "\"" else { return text }
        var result = ""
        var escaped = false
        for (offset, character) in text.dropFirst().enumerated() {
            if escaped {
                let escapes: [Character: Character] = ["n": "\n", "t": "\t"]
                result.append(escapes[character] ?? character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                // The closing quote ends the line.
                return offset == text.count - 2 ? result : nil
            } else {
                result.append(character)
            }
        }
        return nil
    }

    /// The text as a tape writes it: bare when it reads back the same, quoted otherwise.
    public static func quotedIfNeeded(_ text: String) -> String {
        let needsQuotes =
            text.isEmpty || text.first == " " || text.last == " " || text.first == "\""
            || text.contains { $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard needsQuotes else { return text }
        var quoted = "\""
        for character in text {
            switch character {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default: quoted.append(character)
            }
        }
        return quoted + "\""
    }

    /// The name `key NAME` takes for this key (tmux's spelling).
    public static func name(of key: Key) -> String {
        switch key {
        case .character(" "): return "Space"
        case .character(let character): return String(character)
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        case .enter: return "Enter"
        case .escape: return "Escape"
        case .tab: return "Tab"
        case .backTab: return "BTab"
        case .backspace: return "BSpace"
        case .delete: return "DC"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PPage"
        case .pageDown: return "NPage"
        case .control(let letter): return "C-\(letter)"
        case .function(let number): return "F\(number)"
        }
    }

    /// Key names as tmux's send-keys spells them, plus friendlier aliases.
    public static func key(named name: String) -> Key? {
        let named: [String: Key] = [
            "Up": .up, "Down": .down, "Left": .left, "Right": .right, "Enter": .enter, "Escape": .escape,
            "Esc": .escape,
            "Tab": .tab, "BTab": .backTab, "BSpace": .backspace, "Backspace": .backspace, "DC": .delete,
            "Delete": .delete, "Home": .home, "End": .end, "PPage": .pageUp, "PgUp": .pageUp, "NPage": .pageDown,
            "PgDn": .pageDown, "Space": .character(" "),
        ]
        if let key = named[name] { return key }
        if name.hasPrefix("C-"), name.count == 3, let letter = name.last, letter.isLetter {
            return .control(Character(letter.lowercased()))
        }
        if name.hasPrefix("F"), let number = Int(name.dropFirst()), (1...12).contains(number) {
            return .function(number)
        }
        if name.count == 1, let character = name.first { return .character(character) }
        return nil
    }
}

extension Tape.Step {
    /// How `play --dump` names the step it drew the screen after, in the tape's words. A key or a paste that
    /// went into a password field or the code boxes is not shown: `type` makes one step of each character, and
    /// the caption of each was the character itself.
    func caption(intoSecret: Bool) -> String {
        switch self {
        case .input(.key(.character)) where intoSecret, .input(.paste) where intoSecret:
            return "typed into a secret entry (not shown)"
        case .input(let event): return TapeRecorder.line(for: event)
        case .wait(let seconds): return "wait \(TapeRecorder.format(seconds))"
        case .screen: return "screen"
        case .expect(let text): return "expect \(Tape.quotedIfNeeded(text))"
        case .expectNot(let text): return "expect-not \(Tape.quotedIfNeeded(text))"
        case .expectTitle(let text): return "expect title \(Tape.quotedIfNeeded(text))"
        case .expectRow(let text): return "expect row \(Tape.quotedIfNeeded(text))"
        case .expectRequest(let expected): return "expect-request \(expected.words)"
        case .expectNoRequest(let path): return "expect-no-request \(path)"
        case .clock(let move): return "clock \(move.label)"
        case .scenario(let name): return "scenario \(name)"
        case .fault(let words): return "fault \(words)"
        case .code: return "code"
        case .scenarioPassword: return "secret scenario"
        }
    }
}
