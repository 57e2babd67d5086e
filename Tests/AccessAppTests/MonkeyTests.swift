import AccessAPI
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// A seeded monkey over every gallery state, through the headless runtime: random keys, pastes,
/// resizes, waits and failed replies. Nothing may crash, the reducer may record no defect, and
/// every frame must draw something.
@Suite struct MonkeyTests {
    /// SplitMix64: the same seed gives the same walk, so a failure can be replayed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let steps = 300
    static let pastes = ["482915", "+995 (511) 30-04-00", "hello", "12345678", String(repeating: "9", count: 3000), ""]
    static let failures: [APIError] = [
        .offline(reason: "monkey"), .rateLimited(retryAfter: 30, message: "Too many."),
        .codeIncorrect(attemptsRemaining: 1, message: "Wrong."), .codeExpired(message: "Expired."),
        .taken(message: "Taken."), .server(status: 500, code: "internal", message: "Broken."),
    ]

    @Test(arguments: Gallery.entries.map(\.id))
    func randomInputNeverBreaksTheApp(id: String) throws {
        let entry = try #require(Gallery.entry(id))
        // A seed of the state's name: stable across runs, different for each state.
        var random = SeededGenerator(state: id.utf8.reduce(42) { $0 &* 31 &+ UInt64($1) })
        var runtime = HeadlessRuntime(
            state: entry.makeState(Date(timeIntervalSince1970: 1_800_000_000)), size: .standard)
        var answered = 0
        for step in 0..<Self.steps {
            guard !runtime.quit else { break }
            switch Int.random(in: 0..<20, using: &random) {
            case 0:
                runtime.send(.input(.paste(Self.pastes.randomElement(using: &random)!)))
            case 1:
                let size = Size(
                    cols: Int.random(in: 20...200, using: &random), rows: Int.random(in: 6...60, using: &random))
                runtime.send(.input(.resize(size)))
            case 2:
                runtime.advance(by: Double(Int.random(in: 1...90, using: &random)))
            case 3:
                // Answer the oldest request still out with a failure.
                let requests = runtime.externalEffects.compactMap { effect -> RequestID? in
                    if case .request(_, let id) = effect { return id } else { return nil }
                }
                if answered < requests.count {
                    runtime.send(.response(requests[answered], .failure(Self.failures.randomElement(using: &random)!)))
                    answered += 1
                }
            default:
                let key = KeymapConsistencyTests.keys.randomElement(using: &random)!
                // q and Ctrl+C would end the walk early; they are tested elsewhere.
                if key == .character("q") || key == .control("c") { continue }
                runtime.send(.input(.key(key)))
            }
            #expect(runtime.state.defects.isEmpty, "\(id), step \(step): \(runtime.state.defects)")
            if !runtime.state.defects.isEmpty { break }
            // Drawing is the slow part: every 8th step is enough to catch a blank frame.
            guard step % 8 == 0 else { continue }
            let frame = runtime.screen
            #expect(
                frame.textLines().contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty },
                "\(id), step \(step): blank frame")
        }
    }
}
