import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// One table per screen feeds the footer, the `?` help and dispatch: over every gallery state,
/// each key the screen answers to is in its keymap, and each key its keymap lists does
/// something (the screen or the app acts on it).
@Suite struct KeymapConsistencyTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Every key a terminal can send that the app names.
    static let keys: [Key] =
        [
            .up, .down, .left, .right, .enter, .escape, .tab, .backTab, .backspace, .delete, .home, .end, .pageUp,
            .pageDown,
        ] + (1...4).map(Key.function) + "abcdefghijklmnopqrstuvwxyz".map(Key.control)
        + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ?:/+-".map(Key.character)

    /// The keys the app itself acts on around the top screen (see `reduceInput`).
    static func appHandles(_ key: Key, _ state: AppState) -> Bool {
        let takesText = state.top.base.takesText
        switch key {
        case .control("c"), .function(1), .escape: return true
        case .control("o"), .function(2): return state.options.hasReferenceBackend
        case .character("?"), .character("q"), .left: return !takesText
        default: return false
        }
    }

    static var states: [(String, AppState)] {
        Gallery.entries.map { entry in
            var state = entry.makeState(start)
            state.overlay = nil
            return (entry.id, state)
        }
    }

    @Test(arguments: states.map(\.0))
    func everyHandledKeyIsListedAndEveryListedKeyActs(id: String) throws {
        let state = try #require(Self.states.first { $0.0 == id }?.1)
        // The keyboard check echoes every key by design: that is the screen.
        guard !state.top.base.acceptsAnyKey else { return }
        let listed = keymap(for: state).hints.flatMap(\.allKeys)
        let screenListed = state.top.base.keymap(state.context).hints.flatMap(\.allKeys)
        for key in Self.keys {
            var screen = state.top.base
            let handled = screen.handle(.key(key), state.context) != nil
            if handled, !(screen.takesText && InputEvent.key(key).isTextEditing) {
                #expect(listed.contains(key), "\(id): \(key.label) does something but is not in the keymap")
            }
            if screenListed.contains(key) {
                #expect(
                    handled || Self.appHandles(key, state), "\(id): \(key.label) is in the keymap but does nothing")
            }
        }
    }

    @Test func noKeyIsListedTwice() {
        for (id, state) in Self.states {
            let keys = keymap(for: state).hints.flatMap(\.allKeys)
            #expect(Set(keys).count == keys.count, "\(id): \(keys.map(\.label))")
        }
    }

    /// The smallest supported size still shows every action of the footer's screen and the
    /// whole banner timer (issue: at 40×12 Contact support's actions were cut off).
    @Test func atFortyByTwelveContactSupportShowsItsActions() throws {
        let entry = try #require(Gallery.entry("contact-support:default"))
        let text = render(entry.makeState(Self.start), size: .minimum).text()
        #expect(text.contains("Open mail"))
        #expect(text.contains("Copy address"))
    }

    /// The table gates dispatch: a key a screen would act on reaches it only if its keymap lists it.
    @Test func anUnlistedKeyNeverReachesTheScreen() {
        struct ListsOnlyEnter: ScreenModel {
            static var gallery: [GalleryEntry] { [] }
            static var specNotes: SpecNotes { SpecNotes(why: ["A test screen."], seeds: []) }
            var id: String { "lists-only-enter" }
            var pressed: [String] = []
            func keymap(_ context: ScreenContext) -> Keymap { Keymap([KeyHint([.enter], "Go")]) }
            mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
                guard case .key(let key) = event else { return nil }
                pressed.append(key.label)
                return []
            }
            func view(into canvas: inout Canvas, _ context: ScreenContext) {}
        }
        var state = AppState(now: Self.start)
        state.stack.append(AnyScreen(ListsOnlyEnter()))
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.down)))
        harness.send(.input(.key(.character("x"))))
        harness.send(.input(.key(.enter))) { $0.top = AnyScreen(ListsOnlyEnter(pressed: ["Enter"])) }
        harness.finish()
    }
}
