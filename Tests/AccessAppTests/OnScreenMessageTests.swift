import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// One message, one wording (issue 48): "offline" read three ways on three screens, an invalid address two ways
/// (neither seed 001's "Enter a valid email address."), and screens doubled a line ("No device is signed in." over
/// "No other devices are signed in."; "Try again in 0:42" over "Too many requests. Try again later."). Every such
/// message is a key of `OnScreenMessage`; these tests list them, read every gallery state and every string
/// literal of the app, and fail on a second wording of a key: on screen, or written into a screen's source
/// instead of taken from the catalogue.
@Suite struct OnScreenMessageTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func pattern(_ message: OnScreenMessage) -> Regex<AnyRegexOutput>? {
        message.sameMeaning.map { try! Regex($0).ignoresCase() }
    }

    /// The catalogue, listed: every key once, every wording once, and each key's way of finding another wording
    /// finds its own (so a check below that finds nothing has looked).
    @Test func theCatalogueListsEveryMessageOnceWithAWayToFindAnotherWording() {
        let texts = OnScreenMessage.allCases.map(\.text)
        #expect(Set(texts).count == texts.count, "two keys share a wording")
        for message in OnScreenMessage.allCases {
            #expect(!message.text.isEmpty, "\(message)")
            guard let pattern = Self.pattern(message) else { continue }
            #expect(message.text.contains(pattern), "\(message)'s sameMeaning misses its own text")
            // And no other key's wording: each finds only its own meaning.
            for other in OnScreenMessage.allCases where other != message {
                #expect(!other.text.contains(pattern), "\(message)'s sameMeaning finds \(other)'s wording")
            }
        }
    }

    /// A screen as text, its boxes' borders taken out and its lines run together, so a sentence the layout
    /// wrapped reads whole.
    static func screenText(_ state: AppState) -> String {
        render(state, size: .standard).textLines().map { line in
            line.unicodeScalars.filter { !(0x2500...0x257F).contains($0.value) }.map(String.init).joined()
                .trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Where `text` says `message` in other words: each place its meaning is found outside the key's own wording.
    static func otherWordings(of message: OnScreenMessage, in text: String) -> [String] {
        guard let pattern = pattern(message) else { return [] }
        let own = text.ranges(of: message.text)
        return text.matches(of: pattern).filter { found in
            !own.contains { $0.lowerBound <= found.range.lowerBound && found.range.upperBound <= $0.upperBound }
        }.map { found in
            let from = text.index(found.range.lowerBound, offsetBy: -30, limitedBy: text.startIndex) ?? text.startIndex
            let to = text.index(found.range.upperBound, offsetBy: 30, limitedBy: text.endIndex) ?? text.endIndex
            return "…\(text[from..<to])…"
        }
    }

    @Test func everyGalleryStateSaysEachMessageInItsOneWording() {
        var seen: Set<OnScreenMessage> = []
        for entry in Gallery.entries {
            let text = Self.screenText(entry.makeState(Self.start))
            for message in OnScreenMessage.allCases {
                if text.contains(message.text) { seen.insert(message) }
                for other in Self.otherWordings(of: message, in: text) {
                    Issue.record("\(entry.id) says \(message) as \"\(other)\", not \"\(message.text)\"")
                }
            }
        }
        // Not an empty pass: the gallery shows the catalogue's messages.
        #expect(seen.count >= 8, "seen: \(seen)")
    }

    static var countdown: Regex<AnyRegexOutput> { try! Regex(#"Try again in \d+:\d\d"#) }
    static var tryLater: Regex<AnyRegexOutput> { try! Regex(#"try again (later|tomorrow)"#).ignoresCase() }

    /// A screen doubled a line: the empty list said "No device is signed in." over "No other devices are signed
    /// in.", a 429 "Too many requests. Try again later." under its own countdown.
    @Test func noGalleryStateSaysAWaitAndTryLaterAtOnce() {
        for entry in Gallery.entries {
            let text = Self.screenText(entry.makeState(Self.start))
            if text.contains(Self.countdown), text.contains(Self.tryLater) {
                Issue.record("\(entry.id) counts a wait down and says to try again later: \(text)")
            }
            if let pattern = Self.pattern(.noOtherDevices), text.matches(of: pattern).count > 1 {
                Issue.record("\(entry.id) says twice that no device is signed in: \(text)")
            }
        }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The sources whose strings reach a screen: the app, and the client's error words.
    static let sourceFolders = ["Sources/AccessApp", "Sources/AccessAPI/Client"]

    /// A key's meaning written into a string literal of the app, instead of read from the catalogue, fails here:
    /// on whatever screen it shows, it would be a second wording the moment either changed.
    @Test func noSourceWritesAMessageInItsOwnWords() throws {
        var found: [String] = []
        var literals = 0
        for folder in Self.sourceFolders {
            let directory = Self.root.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(atPath: directory.path))
            for case let path as String in files where path.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                {
                    // The string literals of the line: what lies between its quotes (an escaped one is inside).
                    let parts = line.replacingOccurrences(of: "\\\"", with: "'")
                        .split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                        .filter { $0.offset % 2 == 1 }.map(\.element)
                    for literal in parts {
                        literals += 1
                        for message in OnScreenMessage.allCases {
                            guard let pattern = Self.pattern(message), literal.contains(pattern) else { continue }
                            found.append("\(folder)/\(path): \"\(literal)\" says \(message) in its own words")
                        }
                    }
                }
            }
        }
        #expect(literals > 1000)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
