import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 50 item 3: the gallery's preview made each state at the app's own clock, so its sample times drifted
/// ("09:59", "18:29" where `render` showed 10:00, 18:30) and its countdowns ran. The preview is frozen at
/// `Gallery.sampleTime`, the moment `render` draws at.
@Suite struct GalleryTimeTests {
    /// The preview of `id` in an app whose clock reads `now`, at 80×24, its footer line left out.
    func preview(_ id: String, now: Date) -> [String] {
        var state = AppState(now: now)
        state.stack.append(AnyScreen(PreviewScreen(entryID: id)))
        return Array(render(state, size: .standard).textLines().dropLast())
    }

    @Test(arguments: ["hub:journal", "two-factor:on", "deleting-account:default", "enter-code:resend-countdown"])
    func thePreviewIsDrawnAtTheSampleTimeWhateverTheClock(id: String) throws {
        let entry = try #require(Gallery.entry(id))
        let rendered = Array(render(entry.makeState(Gallery.sampleTime), size: .standard).textLines().dropLast())
        let offsets: [TimeInterval] = [0, 30.5, 61, 3_601]
        for offset in offsets {
            #expect(preview(id, now: Gallery.sampleTime + offset) == rendered, "\(id) with the clock at +\(offset) s")
        }
    }
}
