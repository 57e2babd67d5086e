import Foundation
import Testing

@testable import TerminalKit

/// A colour theme picks its text for one background, so it paints that background itself: left to the
/// terminal, the light theme's dark text was unreadable on a dark terminal (issue 28 item 24).
@Suite struct ThemeTests {
    @Test(arguments: [Theme.dark, Theme.light])
    func aColourThemePaintsItsOwnBackground(theme: Theme) throws {
        let background = theme.color(for: .background)
        #expect(background != .terminalDefault)
        guard case .palette(let index) = background else { return }
        #expect(XtermPalette.rgb(index) == theme.defaultBackgroundRGB)
    }

    /// Text and muted text stand apart from the theme's own background (WCAG's relative luminance).
    @Test(arguments: [Theme.dark, Theme.light])
    func textIsReadableOnItsBackground(theme: Theme) throws {
        let background = theme.defaultBackgroundRGB
        for role in [ColorRole.text, .muted, .accent, .danger] {
            guard case .palette(let index) = theme.color(for: role) else {
                Issue.record("\(role) has no colour of its own")
                continue
            }
            #expect(Self.contrast(XtermPalette.rgb(index), background) >= 4.5, "\(role) on the background")
        }
    }

    @Test func monoLeavesEveryColourToTheTerminal() {
        #expect(Theme.mono.color(for: .background) == .terminalDefault)
        #expect(Theme.mono.color(for: .text) == .terminalDefault)
    }

    private static func contrast(_ a: RGB, _ b: RGB) -> Double {
        func luminance(_ color: RGB) -> Double {
            func channel(_ value: Int) -> Double {
                let c = Double(value) / 255
                return c <= 0.039_28 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(color.red) + 0.7152 * channel(color.green) + 0.0722 * channel(color.blue)
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }
}
