import AccessAPI
import Foundation
import TerminalKit

/// "Disconnecting Google…": the disconnect request runs once the user is verified. Success goes
/// back to the hub with the row "Not connected"; the server's last-method refusal shows the hard
/// block; an expired verification asks again; a failure stays here with the provider still
/// connected and Enter to try again.
public struct DisconnectingScreen: BusyScreen {
    public var provider: SocialProvider
    public var error: String?

    static let expiredText = "Your verification has expired. Verify it's you again to continue."

    public init(provider: SocialProvider, error: String? = nil) {
        self.provider = provider
        self.error = error
    }

    public var id: String { "disconnecting-provider" }
    /// Whatever went wrong, the provider is still connected: asking again is the way on.
    public var canRetry: Bool { error != nil }
    public var busyText: String { "Disconnecting \(provider.displayName)…" }
    public var failedTitle: String { "Disconnect \(provider.displayName)" }
    public var failedNotes: [String] { ["\(provider.displayName) is still connected. Nothing was changed."] }

    static func disconnectedText(_ provider: SocialProvider) -> String { "\(provider.displayName) disconnected." }

    public typealias Intent = BusyIntent
    public enum Reply: Equatable, Sendable {
        case disconnect(Result<AuthMethods, APIError>)
        /// The methods fetched after the server's last-method refusal.
        case refresh(Result<AuthMethods, APIError>)
    }

    public func call(_ context: ScreenContext) -> [Command] {
        [
            .call(
                Endpoint.DisconnectProvider(provider: provider, reauthToken: context.reauth?.reauthToken),
                Reply.disconnect)
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        guard intent == .retry else { return [.contactSupport(typed: nil)] }
        error = nil
        return call(context)
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
}
