import AccessAPI
import AccessCore

/// The re-auth link: opening it verifies the user, and the flow that asked goes on.
struct ReauthLink: LinkPurpose {
    public var flow: AnyFlow
    public init(flow: AnyFlow) { self.flow = flow }
    public var resend: Endpoint.ReauthEmailSend? { Endpoint.ReauthEmailSend() }
    public func confirm(token: String) -> Endpoint.ReauthEmailConfirm { Endpoint.ReauthEmailConfirm(token: token) }
    public func confirmed(_ grant: ReauthGrant, _ context: ScreenContext) -> [Command] {
        [.grantReauth(grant), .continueFlow(flow)]
    }
    public func accepts(_ message: OutboxMessage) -> Bool { message.outboxKind == .reauthLink }
    public var canEditAddress: Bool { false }
    public var linkPath: String { "reauth" }
    public var kind: EmailLink { .reauth }
}

extension AnyLinkPurpose {
    public static func reauth(_ flow: AnyFlow) -> AnyLinkPurpose { AnyLinkPurpose(ReauthLink(flow: flow)) }
}
