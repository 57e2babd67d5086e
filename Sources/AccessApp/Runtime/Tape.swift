import Foundation
import TerminalKit

/// A recorded session: what a person typed and how long they waited, replayed headless by
/// `accessdeck play`. One step a line; `#` starts a comment. See fixtures/tapes/README.md.
public struct Tape: Equatable, Sendable {
    public enum Step: Equatable, Sendable {
        case input(InputEvent)
        case wait(seconds: TimeInterval)
        case screen
    }

    /// A step and the tape line it came from, for error messages and `--dump` captions.
    public struct Entry: Equatable, Sendable {
        public var line: Int
        public var step: Step
    }

    public var size: Size
    public var steps: [Entry]

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public init(parsing text: String) throws {
        size = .standard
        steps = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let verb = words.first else { continue }
            let rest = line.drop { $0 == " " }.dropFirst(verb.count).drop { $0 == " " }
            func fail(_ message: String) -> ParseError { ParseError(line: lineNumber, message: message) }
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
                guard !rest.isEmpty else { throw fail("type needs text") }
                steps.append(contentsOf: rest.map { Entry(line: lineNumber, step: .input(.key(.character($0)))) })
            case "paste":
                steps.append(Entry(line: lineNumber, step: .input(.paste(String(rest)))))
            case "wait":
                guard words.count == 2, let seconds = TimeInterval(words[1].replacingOccurrences(of: "s", with: "")),
                    seconds >= 0, seconds <= 86_400 * 7
                else { throw fail("wait takes seconds, such as 3 or 0.5") }
                steps.append(Entry(line: lineNumber, step: .wait(seconds: seconds)))
            case "screen":
                steps.append(Entry(line: lineNumber, step: .screen))
            default:
                throw fail("unknown step '\(verb)'; steps are size, resize, key, type, paste, wait, screen")
            }
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
