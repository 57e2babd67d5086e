import Testing

@testable import AccessApp

/// Tab's one definition: the next available stop either way, round the ends, and nowhere to go
/// leaves the focus where it is.
@Suite struct FocusOrderTests {
    enum Stop: Equatable { case first, second, button, last }
    let stops: [Stop] = [.first, .second, .button, .last]

    @Test func stepsForwardAndBackRoundTheEnds() {
        #expect(FocusOrder.step(stops, from: .first, forward: true) == .second)
        #expect(FocusOrder.step(stops, from: .last, forward: true) == .first)
        #expect(FocusOrder.step(stops, from: .first, forward: false) == .last)
        #expect(FocusOrder.step(stops, from: .button, forward: false) == .second)
    }

    @Test func passesOverAStopThatIsNotAvailable() {
        let offButton: (Stop) -> Bool = { $0 != .button }
        #expect(FocusOrder.step(stops, from: .second, forward: true, isAvailable: offButton) == .last)
        #expect(FocusOrder.step(stops, from: .last, forward: false, isAvailable: offButton) == .second)
        // From the unavailable stop itself (it went off while focused) the next one is still found.
        #expect(FocusOrder.step(stops, from: .button, forward: true, isAvailable: offButton) == .last)
    }

    @Test func staysWhereItIsWhenNoOtherStopIsAvailable() {
        #expect(FocusOrder.step(stops, from: .second, forward: true) { $0 == .second } == .second)
        #expect(FocusOrder.step(stops, from: .second, forward: true) { _ in false } == .second)
        #expect(FocusOrder.step([Stop](), from: .first, forward: true) == .first)
    }
}
