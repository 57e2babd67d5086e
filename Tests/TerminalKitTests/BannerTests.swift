import Foundation
import SnapshotSupport
import Testing

@testable import TerminalKit

@Suite struct BannerTests {
    let now = Date(timeIntervalSince1970: 1_000_000)

    func render(_ banner: Banner, at now: Date) -> CellGrid {
        var grid = canvas(80, 3)
        banner.render(into: &grid, in: grid.bounds, now: now)
        return grid
    }

    @Test func offline() {
        let grid = render(.offline, at: now)
        #expect(grid.text(row: 0).contains("! You're offline. Showing saved info."))
        #expect(grid[0, 0].style.attributes.contains(.reverse))
        assertSnapshot(of: grid, named: "banner-offline")
    }

    @Test func rateLimitedCountsDown() {
        let banner = Banner.rateLimited(until: now.addingTimeInterval(42))
        #expect(banner.text(now: now) == "Too many attempts. Try again in 0:42")
        #expect(banner.text(now: now.addingTimeInterval(0.5)) == "Too many attempts. Try again in 0:42")
        #expect(banner.text(now: now.addingTimeInterval(37)) == "Too many attempts. Try again in 0:05")
        assertSnapshot(of: render(banner, at: now), named: "banner-rate-limited-42s")
        assertSnapshot(of: render(banner, at: now.addingTimeInterval(37)), named: "banner-rate-limited-5s")
    }

    @Test func rateLimitEnds() {
        let banner = Banner.rateLimited(until: now.addingTimeInterval(90))
        #expect(banner.text(now: now) == "Too many attempts. Try again in 1:30")
        #expect(banner.isActive(at: now.addingTimeInterval(89.5)))
        #expect(!banner.isActive(at: now.addingTimeInterval(90)))
        #expect(banner.text(now: now.addingTimeInterval(95)) == "You can try again now.")
        #expect(Banner.offline.isActive(at: now))
    }

    /// The gap between sends is not a limit reached: it says when to resend, and is not drawn as a danger.
    @Test func aCooldownSaysWhenToResend() {
        let cooldown = Banner.Wait(lead: "Resend in", shortLead: "Resend in", isLimit: false)
        let banner = Banner.rateLimited(until: now.addingTimeInterval(24), wait: cooldown)
        #expect(banner.text(now: now) == "Resend in 0:24")
        #expect(render(banner, at: now)[0, 0].style.foreground == .warning)
        #expect(render(.rateLimited(until: now.addingTimeInterval(24)), at: now)[0, 0].style.foreground == .danger)
    }

    /// At 40 columns the whole wait shows rather than a sentence cut before its timer.
    @Test func aNarrowBannerKeepsTheWholeTimer() {
        var grid = canvas(40, 1)
        Banner.rateLimited(until: now.addingTimeInterval(14 * 60 + 52)).render(into: &grid, in: grid.bounds, now: now)
        #expect(grid.text(row: 0).contains("! Try again in 14:52"))
        #expect(!grid.text(row: 0).contains("…"))
    }
}
