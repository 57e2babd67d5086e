import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 50: "Verifying your link…" and "Checking your link…" stayed the title over an error, still saying the
/// call was under way. Every gallery state of a busy screen that failed has a title of its own.
@Suite struct BusyScreenTitleTests {
    @Test func aFailedBusyScreenNoLongerSaysItIsUnderWay() throws {
        var failed = 0
        for entry in Gallery.entries {
            let state = entry.makeState(Gallery.sampleTime)
            guard let busy = state.top.base as? any BusyScreen, busy.error != nil else { continue }
            failed += 1
            let title = render(state, size: .standard).textLines().first { !$0.isEmpty } ?? ""
            #expect(!title.contains(busy.busyText), "\(entry.id): \(title)")
            #expect(title.contains(busy.failedTitle), "\(entry.id): \(title)")
        }
        #expect(failed >= 4, "the gallery has failed busy screens to look at")
    }
}
