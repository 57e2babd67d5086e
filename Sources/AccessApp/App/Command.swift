import AccessAPI
import Foundation
import TerminalKit

/// What a screen asks of the app around it.
public enum Command: Equatable, Sendable {
    case push(AnyScreen)
    case pop
    /// Pops until a screen of this type is on top (it stays). Not on the stack: a programming
    /// error, recorded in `AppState.defects` (tests fail on it) and the stack left alone.
    case popTo(ScreenType)
    /// Pops to the topmost screen of any of these types; none on the stack leaves it alone. For
    /// screens reached more than one way (a link opened from the flow, or from anywhere).
    case popToNearest([ScreenType])
    case replaceTop(AnyScreen)
    /// The stack becomes this one screen: nothing to go back to (the account was deleted).
    case resetStack(AnyScreen)
    case showToast(String)
    case showSheet(Sheet)
    case showOverlay(AnyOverlay)
    case dismissOverlay
    /// The outbox panel over the screen (reference backend only), loading.
    case showOutbox
    /// The command palette, opened on this search (nil: empty).
    case showPalette(search: String?)
    /// Calls the backend for whoever gave the command (the screen, or the overlay); the reply comes back
    /// to it as the `Reply` case the call names, if it is still there (`AppState.pending`).
    case call(Call)
    /// Calls the backend and lets the reply go: nothing waits for it (a code cancelled as its screen goes).
    case callIgnoringReply(AnyRequest)
    /// A code or link chosen in the outbox: the top screen uses it, or the link's kind says where it goes.
    case useOutboxMessage(OutboxMessage)
    /// What the palette's chosen command does (it is closed by now).
    case runPalette(PaletteAction)
    /// The paths the app called lately, newest first (the journal read them): the palette offers faults for them.
    case noteEndpoints([String])
    case setMethods(AuthMethods)
    /// The Active sessions list last loaded, for the list opened again offline.
    case setSessions([ActiveSession])
    case setProfile(Profile?)
    case setOffline(Bool)
    case grantReauth(ReauthGrant)
    /// The re-auth grant held here is no good any more: it belonged to a session this app no longer has (an
    /// email-change link issues a new one), or the backend refused it. The next sensitive action asks
    /// "Verify it's you" again (issue 45 item 6 bound grants to the session that earned them).
    case forgetReauth
    /// Forgets the user here: the methods and the re-auth grant in memory, and (`.signOutLocally`)
    /// the session file and the methods cache.
    case signOut
    /// Log out (seed 002): forgotten here at once as `signOut`, the backend told when it can be, and the
    /// sign-in screen says so. Nobody waits for the backend.
    case logOut
    /// A sign-in succeeded (the client already keeps the new session): the app starts over on the
    /// signed-in root with the account's methods; nothing of an earlier user (re-auth, overlay) stays.
    case signedIn(SignedIn)
    /// Continue a sensitive flow now that the user is verified (or needs no verification).
    case continueFlow(AnyFlow)
    case run(Effect)
    /// The app's looks, switched live (the gallery's preview, the palette).
    case setLooks(theme: Theme.Name, ascii: Bool)
    /// Hands a picker's choice to the screen under the top one (the one that pushed the picker); a screen
    /// below of another type (a gallery state's made-up stack) takes nothing.
    case deliverBelow(Delivery)
    /// Pops back to the topmost screen of the delivery's type and hands it the choice (through
    /// `receiveChoice`): a step interrupted by something pushed over it picks up where it was.
    case returnTo(Delivery)
    /// Contact support from where the person is stuck: the ticket names the signed-in user, else what they
    /// typed (`typed`, nil: nothing), and the screens on the stack (issue 49 item 6).
    case contactSupport(typed: SupportTicket.Who?)

    public static func push(_ screen: some ScreenModel) -> Command { .push(AnyScreen(screen)) }
    public static func replaceTop(_ screen: some ScreenModel) -> Command { .replaceTop(AnyScreen(screen)) }
    public static func resetStack(_ screen: some ScreenModel) -> Command { .resetStack(AnyScreen(screen)) }
    public static func popTo(_ type: any ScreenModel.Type) -> Command { .popTo(ScreenType(type)) }
    public static func popToNearest(_ types: any ScreenModel.Type...) -> Command {
        .popToNearest(types.map(ScreenType.init))
    }
    public static func call<Request: APIRequest, Reply: Equatable & Sendable>(
        _ request: Request, _ reply: @escaping @Sendable (Result<Request.Reply, APIError>) -> Reply
    ) -> Command {
        .call(Call(request, reply))
    }
    /// A call its owner waits for no longer than `seconds` on the app clock (`Call.within`).
    public static func call<Request: APIRequest, Reply: Equatable & Sendable>(
        _ request: Request, _ reply: @escaping @Sendable (Result<Request.Reply, APIError>) -> Reply,
        within seconds: TimeInterval
    ) -> Command {
        .call(Call(request, reply).within(seconds: seconds))
    }
    public static func callIgnoringReply(_ request: some APIRequest) -> Command {
        .callIgnoringReply(AnyRequest(request))
    }
    public static func showOverlay(_ overlay: some OverlayModel) -> Command { .showOverlay(AnyOverlay(overlay)) }
    public static func continueFlow(_ flow: some SensitiveFlow) -> Command { .continueFlow(AnyFlow(flow)) }
    public static func deliverBelow<Target: ScreenModel>(to target: Target.Type, _ choice: Target.Choice) -> Command {
        .deliverBelow(Delivery(to: target, choice))
    }
    public static func returnTo<Target: ScreenModel>(_ target: Target.Type, with choice: Target.Choice) -> Command {
        .returnTo(Delivery(to: target, choice))
    }
}
