import Foundation
import Testing

@testable import AccessApp

@Suite struct NavigationTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func enterOnScreenGalleryPushesTheGalleryAndEscPopsIt() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(.input(.key(.down))) { $0.top = .settings(.init(selection: 1)) }
        harness.send(.input(.key(.enter))) { $0.stack.append(.gallery(.init())) }
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
        harness.finish()
    }

    @Test func backAtTheRootDoesNothing() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(.input(.key(.escape)))
        harness.send(.input(.key(.left)))
        harness.finish()
    }

    @Test func selectionStopsAtTheEnds() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(.input(.key(.up)))
        harness.send(.input(.key(.down))) { $0.top = .settings(.init(selection: 1)) }
        harness.send(.input(.key(.down)))
        harness.finish()
    }

    @Test func galleryOpensAPreviewOfTheSelectedEntry() {
        let harness = ReducerHarness(AppState(stack: [.settings(.init()), .gallery(.init())], now: start))
        harness.send(.input(.key(.down))) { $0.top = .gallery(.init(selection: 1)) }
        harness.send(.input(.key(.enter))) {
            $0.stack.append(.preview(.init(entryID: Gallery.entries[1].id)))
        }
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
        harness.finish()
    }

    @Test func galleryPagesWithoutRunningOffTheList() {
        let harness = ReducerHarness(AppState(stack: [.settings(.init()), .gallery(.init())], now: start))
        harness.send(.input(.key(.pageDown))) { $0.top = .gallery(.init(selection: Gallery.entries.count - 1)) }
        harness.send(.input(.key(.pageUp))) { $0.top = .gallery(.init(selection: 0)) }
        harness.finish()
    }

    @Test func qAndCtrlCQuit() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(.input(.key(.character("q"))), effects: [.quit])
        harness.send(.input(.key(.control("c"))), effects: [.quit])
        harness.finish()
    }

    @Test func resizeChangesNothingInState() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(.input(.resize(.init(cols: 30, rows: 8))))
        harness.finish()
    }

    @Test func pasteOnAScreenWithoutTextFieldsIsIgnored() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(.input(.paste("482915")))
        harness.finish()
    }
}

@Suite struct OverlayTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func questionMarkOpensHelpAndAnyCloseKeyClosesIt() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(.input(.key(.character("?")))) { $0.overlay = .help }
        harness.send(.input(.key(.down)))  // swallowed while help is open
        harness.send(.input(.key(.escape))) { $0.overlay = nil }
        harness.send(.input(.key(.function(1)))) { $0.overlay = .help }
        harness.send(.input(.key(.character("q")))) { $0.overlay = nil }
        harness.finish()
    }

    @Test func ctrlCQuitsEvenWithHelpOpen() {
        var state = AppState(now: start)
        state.overlay = .help
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.control("c"))), effects: [.quit])
        harness.finish()
    }

    @Test func aToastDisappearsWhenTheClockPassesItsLifetime() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(
            .input(.key(.enter)), effects: [.after(seconds: Toast.lifetime, action: .toastExpired, id: .toast)]
        ) {
            $0.toast = Toast(message: "Account access arrives with the hub screen.", expiresAt: self.start + 3)
        }
        harness.advance(by: 2.9)
        harness.advance(by: 0.1)
        harness.receive(.toastExpired) { $0.toast = nil }
        harness.finish()
    }

    @Test func aSecondToastRestartsTheTimer() {
        let harness = ReducerHarness(AppState(now: start))
        let timer = Effect.after(seconds: Toast.lifetime, action: .toastExpired, id: .toast)
        let message = "Account access arrives with the hub screen."
        harness.send(.input(.key(.enter)), effects: [timer]) {
            $0.toast = Toast(message: message, expiresAt: self.start + 3)
        }
        harness.advance(by: 2)
        harness.send(.input(.key(.enter)), effects: [timer]) {
            $0.toast = Toast(message: message, expiresAt: self.start + 5)
        }
        harness.advance(by: 1)  // the first toast's time has passed, but its timer was replaced
        harness.advance(by: 2)
        harness.receive(.toastExpired) { $0.toast = nil }
        harness.finish()
    }

    @Test func aLateExpiryKeepsANewerToast() {
        var state = AppState(now: start)
        state.toast = Toast(message: "newer", expiresAt: start + 3)
        let harness = ReducerHarness(state)
        harness.send(.toastExpired)
        harness.finish()
    }
}
