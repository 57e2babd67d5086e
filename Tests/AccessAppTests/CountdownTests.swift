import Foundation
import Testing

@testable import AccessApp

@Suite struct CountdownTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func formatsMinutesAndSecondsRoundingUp() {
        #expect(countdown(from: now, to: now + 27) == "0:27")
        #expect(countdown(from: now, to: now + 26.2) == "0:27")
        #expect(countdown(from: now, to: now + 90) == "1:30")
        #expect(countdown(from: now, to: now) == "0:00")
        #expect(countdown(from: now, to: now - 5) == "0:00")
    }
}
