import AccessAPI
import AccessAppTesting
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// One table per screen and per overlay feeds the footer, the `?` help, the palette and dispatch: over
/// every gallery state, with every overlay open over it, a key that does anything is listed in the
/// keymap the footer shows, and every listed key is bound to an intent.
@Suite struct KeymapConsistencyTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Every key a terminal can send that the app names.
    static let keys: [Key] =
        [
            .up, .down, .left, .right, .enter, .escape, .tab, .backTab, .backspace, .delete, .home, .end, .pageUp,
            .pageDown,
        ] + (1...4).map(Key.function) + "abcdefghijklmnopqrstuvwxyz".map(Key.control)
        + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ?:/+-".map(Key.character)

    /// The overlays a person can open over any screen, by name; nil is the screen alone (or the
    /// gallery state's own overlay, a sheet).
    static let overlays: [(String, @Sendable (AppState) -> AnyOverlay?)] = [
        ("as in the gallery", { $0.overlay }),
        ("help", { _ in .help }),
        ("outbox", { .outbox(OutboxPanel(messages: SampleData.outbox(at: $0.now), isLoading: false)) }),
        ("palette", { .palette(CommandPalette(commands: CommandPalette.commands(for: $0))) }),
        ("journal", { _ in .journal(JournalPanel()) }),
        ("spec notes", { .specNotes(SpecNotesPanel(over: $0.top)) }),
        ("timeline", { AnyOverlay(timeline(at: $0.now, detail: false)) }),
        ("timeline event", { AnyOverlay(timeline(at: $0.now, detail: true)) }),
    ]

    /// A loaded timeline, listing or showing its selected event whole: each shows its own keys.
    static func timeline(at now: Date, detail: Bool) -> TimelinePanel {
        var panel = TimelinePanel(user: "+995511100000")
        panel.isLoading = false
        panel.events = [
            TimelineEvent(
                id: 2, at: now - 30, kind: EventKind.sendRefused.rawValue, userId: "usr_athlete",
                subject: "+995511100000", rule: Rule.rateLimitCooldown.rawValue, sessionId: nil, deviceId: nil,
                clientAddress: "127.0.0.1", detail: .init(additionalProperties: ["limit": "cooldown"])),
            TimelineEvent(
                id: 1, at: now - 60, kind: EventKind.codeSent.rawValue, userId: "usr_athlete",
                subject: "+995511100000", rule: nil, sessionId: nil, deviceId: nil, clientAddress: "127.0.0.1",
                detail: .init(additionalProperties: ["channel": "sms", "purpose": "sign_in"])),
        ]
        panel.showsDetail = detail
        return panel
    }

    static var ids: [String] { Gallery.entries.map(\.id) }

    static func state(_ id: String) -> AppState? {
        Gallery.entry(id).map { entry in
            var state = entry.makeState(start)
            state.size = .standard
            // The one-second tick is running already: starting it is no key's doing.
            state.clockTicking = true
            return state
        }
    }

    /// Whether typing this key is text where it lands (then it need not be listed).
    static func isTyping(_ key: Key, _ state: AppState) -> Bool {
        let event = InputEvent.key(key)
        if let overlay = state.overlay { return overlay.base.takesText && event.isTextEditing }
        return state.top.base.acceptsAnyKey || (state.top.base.takesText && event.isTextEditing)
    }

    @Test(arguments: ids)
    func everyKeyThatActsIsListedAndEveryListedKeyIsBound(id: String) throws {
        let gallery = try #require(Self.state(id))
        // The gallery's preview shows another state: its keys are the preview's.
        for (name, overlay) in Self.overlays {
            var state = gallery
            state.overlay = overlay(gallery)
            let listed = Set(keymap(for: state).hints.flatMap(\.allKeys))
            for key in Self.keys where !listed.contains(key) && key != .control("c") && !Self.isTyping(key, state) {
                let probe = ReducerHarness(state, exhaustivity: .off)
                let effects = probe.send(.input(.key(key)))
                #expect(
                    probe.state == state && effects.isEmpty, "\(id) with \(name): \(key.label) acts but is not listed")
            }
            if let open = state.overlay {
                for binding in open.base.boundKeys(state.overlayContext) {
                    #expect(binding.listed == binding.bound, "\(id) with \(name): \(binding) is listed, not bound")
                }
            } else {
                for binding in state.top.base.boundKeys(state.context) {
                    #expect(binding.listed == binding.bound, "\(id): \(binding) is listed, not bound")
                }
            }
        }
    }

    @Test(arguments: ids)
    func noKeyIsListedTwice(id: String) throws {
        let gallery = try #require(Self.state(id))
        for (name, overlay) in Self.overlays {
            var state = gallery
            state.overlay = overlay(gallery)
            let keys = keymap(for: state).hints.flatMap(\.allKeys)
            #expect(Set(keys).count == keys.count, "\(id) with \(name): \(keys.map(\.label))")
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

    /// The table is the dispatch: a key no binding names never reaches the screen.
    @Test func anUnboundKeyNeverReachesTheScreen() {
        struct BindsOnlyEnter: ScreenModel {
            static var gallery: [GalleryEntry] { [] }
            static var specNotes: SpecNotes { SpecNotes(why: ["A test screen."], seeds: []) }
            var id: String { "binds-only-enter" }
            var pressed = 0
            enum Intent: Sendable { case go }
            func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] { [KeyBinding([.enter], "Go", .go)] }
            mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
                pressed += 1
                return []
            }
            func view(into canvas: inout Canvas, _ context: ScreenContext) {}
        }
        var state = AppState(now: Self.start)
        state.stack.append(AnyScreen(BindsOnlyEnter()))
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.down)))
        harness.send(.input(.key(.character("x"))))
        harness.send(.input(.key(.enter))) { $0.top = AnyScreen(BindsOnlyEnter(pressed: 1)) }
    }
}
