import Foundation
import TerminalKit

/// "Calling…": a screen that is one call under way ("Checking your link…", "Verifying your link…",
/// "Disconnecting Google…", "Deleting your account…"). A centred spinner while it runs (seed 000: a spinner,
/// not a skeleton), turning with the clock; when it fails, what went wrong and the way on: Enter tries again
/// where that may help, Esc goes back. The call, the words and where the answer leads are each screen's own;
/// the spinner, the failure, the clock and the Try again key are here, once.
public protocol BusyScreen: ScreenModel {
    /// What went wrong; nil while the call runs.
    var error: String? { get }
    /// Trying again may help (no answer came); a refusal would only come back.
    var canRetry: Bool { get }
    /// The spinner turns (the call runs).
    var isBusy: Bool { get }
    /// The spinner's words: "Checking your link…".
    var busyText: String { get }
    /// The title over a failure, each screen's own: the spinner's words ("Verifying your link…") stayed over
    /// the error, still saying it was under way (issue 50).
    var failedTitle: String { get }
    /// What the failure left as it was, between the error and the way on ("Nothing was changed.").
    var failedNotes: [String] { get }
    /// The call, as the screen appears and on Try again.
    func call(_ context: ScreenContext) -> [Command]
}

extension BusyScreen {
    public var isBusy: Bool { error == nil }
    public var failedNotes: [String] { [] }

    /// The spinner's frame follows the clock.
    public var needsClock: Bool { isBusy }

    public func onAppear(_ context: ScreenContext) -> [Command] { call(context) }

    /// Enter tries again, where that may help; s contacts support once the call failed, the way on from a
    /// failure that trying again will not mend (issue 49 item 6).
    func retryBindings<Intent>(_ retry: Intent, support: Intent) -> [KeyBinding<Intent>] {
        (canRetry ? [KeyBinding([.enter], "Try again", retry)] : [])
            + (error != nil && !isBusy ? [KeyBinding([.character("s")], "Contact support", support)] : [])
    }

    /// The spinner while the call runs; else the failure: its title, the error, what it left, the way on.
    public func view(into canvas: inout Canvas, _ context: ScreenContext) { drawBusy(into: &canvas, context) }

    func drawBusy(into canvas: inout Canvas, _ context: ScreenContext) {
        guard let error, !isBusy else { return canvas.spinner(busyText, at: context.now) }
        canvas.title(failedTitle)
        canvas.paragraph(error, style: .danger)
        for note in failedNotes { canvas.paragraph(note) }
        canvas.paragraph(
            canRetry
                ? "Press Enter to try again, s to contact support, or Esc to go back."
                : "Press s to contact support, or Esc to go back.", style: .muted)
    }
}

/// The keys of a busy screen that has no other: Enter, once a failure may go better the next time, and
/// Contact support once it failed.
public enum BusyIntent: Sendable { case retry, support }

extension BusyScreen where Intent == BusyIntent {
    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] { retryBindings(.retry, support: .support) }
}

extension Canvas {
    /// A spinner centred in the rest of the screen, its frame from the clock (`needsClock` turns it).
    mutating func spinner(_ text: String, at now: Date) {
        let spinner = Spinner(text, tick: Int(now.timeIntervalSince1970))
        let glyphs = self.glyphs
        draw(height: remaining.height) { grid, rect in spinner.render(into: &grid, in: rect, glyphs: glyphs) }
    }
}
