import AccessAPI
import Foundation
import TerminalKit

// SHELL — replaced by the issue 5 screen work in this session.
public struct CheckEmailScreen: ScreenModel {
    public var flow: AccountFlow
    public var sentTo: String
    public var sentAt: Date

    public init(flow: AccountFlow, sentTo: String, sentAt: Date) {
        self.flow = flow
        self.sentTo = sentTo
        self.sentAt = sentAt
    }

    public var id: String { "check-email" }
    public func keymap(_ context: ScreenContext) -> Keymap { Keymap([]) }
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? { nil }
    public func view(into canvas: inout Canvas, _ context: ScreenContext) { canvas.title("Check your email") }
}
