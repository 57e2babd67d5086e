import AccessAPI
import Foundation
import TerminalKit

/// "Disconnecting Google…": the disconnect request runs once the user is verified. Success goes
/// back to the hub with the row "Not connected"; the server's last-method refusal shows the hard
/// block; an expired verification asks again; a failure stays here with the provider still
/// connected and Enter to try again.
public struct DisconnectingScreen: ScreenModel {
    public var provider: SocialProvider
    public var error: String?

    static let expiredText = "Your verification has expired. Verify it's you again to continue."

    public init(provider: SocialProvider, error: String? = nil) {
        self.provider = provider
        self.error = error
    }

    public var id: String { "disconnecting-provider" }
    /// The spinner's frame follows the clock.
    public var needsClock: Bool { error == nil }

    static func disconnectedText(_ provider: SocialProvider) -> String { "\(provider.displayName) disconnected." }

    public enum Intent: Sendable { case retry }
    public enum Reply: Equatable, Sendable {
        case disconnect(Result<AuthMethods, APIError>)
        /// The methods fetched after the server's last-method refusal.
        case refresh(Result<AuthMethods, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        error == nil ? [] : [KeyBinding([.enter], "Try again", .retry)]
    }

    public func onAppear(_ context: ScreenContext) -> [Command] {
        [
            .call(
                Endpoint.DisconnectProvider(provider: provider, reauthToken: context.reauth?.reauthToken),
                Reply.disconnect)
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        error = nil
        return onAppear(context)
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        switch reply {
        case .refresh(let result):
            // Whatever the refresh says, the server's refusal stands: show the block on the hub.
            let methods = (try? result.get()).map { [Command.setMethods($0)] } ?? []
            return methods + [.popTo(HubScreen.self), .showSheet(.cantDisconnect(provider))]
        case .disconnect(.success(let methods)):
            return [.setMethods(methods), .popTo(HubScreen.self), .showToast(Self.disconnectedText(provider))]
        case .disconnect(.failure(.server(409, ErrorCode.lastMethod.rawValue, _))):
            // The client's methods were out of date: fetch them, then show the block.
            return [.call(LoadAuthMethods(), Reply.refresh)]
        case .disconnect(.failure(.reauthRequired)):
            let flow = AnyFlow(DisconnectFlow(provider: provider))
            return [.popTo(HubScreen.self), .push(ReauthPickerScreen(flow: flow, error: Self.expiredText))]
        case .disconnect(.failure(let failure)):
            error = failure.message
            return []
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        let name = provider.displayName
        guard let error else {
            let spinner = Spinner("Disconnecting \(name)…", tick: Int(context.now.timeIntervalSince1970))
            let glyphs = canvas.glyphs
            let height = canvas.remaining.height
            canvas.draw(height: height) { grid, rect in
                spinner.render(into: &grid, in: rect, glyphs: glyphs)
            }
            return
        }
        canvas.title("Disconnect \(name)")
        canvas.paragraph(error, style: .danger)
        canvas.paragraph("\(name) is still connected. Nothing was changed.")
        canvas.paragraph("Press Enter to try again, or Esc to go back.", style: .muted)
    }
}
