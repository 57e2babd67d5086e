import Foundation
import Testing

@testable import AccessApp

/// Issue 29, item 8: a screen named without a state (`render hub`) is its default state, the one a person
/// normally sees, which each screen names; not whichever state its gallery lists first.
@Suite struct GalleryDefaultStateTests {
    @Test func aScreenAloneIsItsDefaultState() {
        #expect(Gallery.entries.first { $0.screen == "hub" }?.id == "hub:loading")
        #expect(Gallery.entry("hub")?.id == "hub:default")
        #expect(Gallery.entry("hub:loading")?.id == "hub:loading")
        #expect(Gallery.entry("enter-phone")?.id == "enter-phone:sign-in")
        #expect(Gallery.entry("no-such-screen") == nil)
        #expect(Gallery.entry("hub:no-such-state") == nil)
    }

    @Test func everyScreensDefaultStateIsInItsOwnGallery() {
        for screen in Features.screens {
            let name = screen.gallery.first?.screen ?? ""
            #expect(
                screen.gallery.allSatisfy { $0.screen == name }, "\(screen): every state is \(name):STATE")
            let id = "\(name):\(screen.defaultGalleryState)"
            #expect(screen.gallery.contains { $0.id == id }, "\(screen) names \(id), which its gallery lacks")
            #expect(Gallery.entry(String(name))?.id == id)
        }
    }
}
