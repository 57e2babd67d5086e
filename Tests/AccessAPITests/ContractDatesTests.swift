import Foundation
import Testing

@testable import AccessAPI

/// Issue 34 item 2: dates are written without the format style for the years 1970 to 9999, exactly as the
/// format style writes them; outside those years the format style still writes them.
@Suite struct ContractDatesTests {
    static let style = Date.ISO8601FormatStyle()

    static var dates: [Date] {
        var seconds: [Double] = [
            0, 0.25, 0.999, 1, 59, 60, 3599, 3600, 86_399, 86_400, 951_782_400, 951_868_799.5, 1_790_000_000,
            1_709_251_199, 1_709_251_200, 4_107_542_400, 253_402_300_799, 253_402_300_799.9,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            seconds.append(Double.random(in: 0..<253_402_300_800, using: &generator))
            seconds.append(Double(Int.random(in: 0..<4_102_444_800, using: &generator)))
        }
        return seconds.map { Date(timeIntervalSince1970: $0) }
    }

    @Test func writesWhatTheFormatStyleWrites() throws {
        for date in Self.dates {
            let written = try #require(ContractDates.wholeSecondsUTC(date), "\(date.timeIntervalSince1970)")
            #expect(written == Self.style.format(date), "\(date.timeIntervalSince1970)")
        }
    }

    @Test func leavesOtherYearsToTheFormatStyle() throws {
        for seconds in [-1.0, -0.5, -86_400 * 365.0, 253_402_300_800, 300_000_000_000] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ContractDates.wholeSecondsUTC(date) == nil)
            #expect(try ContractDates().encode(date) == Self.style.format(date))
        }
    }

    /// What is written is read back to the same whole second.
    @Test func roundTrips() throws {
        for date in Self.dates.prefix(200) {
            let read = try ContractDates().decode(try ContractDates().encode(date))
            #expect(read.timeIntervalSince1970 == date.timeIntervalSince1970.rounded(.down))
        }
    }
}
