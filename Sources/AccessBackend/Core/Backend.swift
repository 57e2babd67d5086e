import AccessCore
import Foundation

/// Everything the routes need, built once per running server.
struct Backend: Sendable {
    let store: Store
    let clock: BackendClock
    let catalog: ScenarioCatalog
    let faults = FaultService()
    let journal = JournalService()
    let refusals = RefusalSwitch()
    let linkBase: String
    let frozenOverride: Bool?

    var accounts: AccountService { AccountService(store: store) }
    var sessions: SessionService { SessionService(store: store, clock: clock) }
    var sessionList: SessionListService { SessionListService(store: store, clock: clock) }
    var otp: OTPService { OTPService(store: store, clock: clock) }
    var reauth: ReauthService { ReauthService(store: store, clock: clock) }
    var twoFactor: TwoFactorService { TwoFactorService(store: store, clock: clock) }
    var devicePasskeys: DevicePasskeyService {
        DevicePasskeyService(store: store, relyingParty: PasskeyRelyingParty.reference)
    }
    var passkeys: PasskeyService {
        PasskeyService(store: store, clock: clock, relyingParty: PasskeyRelyingParty.reference)
    }
    var links: LinkService { LinkService(store: store, clock: clock, linkBase: linkBase) }
    var emails: EmailService { EmailService(store: store, clock: clock, linkBase: linkBase) }
    var passwords: PasswordService { PasswordService(store: store, clock: clock) }
    var providers: ProviderService { ProviderService(store: store, clock: clock) }
    var disconnects: DisconnectService { DisconnectService(store: store, clock: clock) }
    var providerLinks: ProviderLinkService { ProviderLinkService(store: store, clock: clock) }
    var deletions: DeletionService { DeletionService(store: store, clock: clock) }
    var signIns: SignInService { SignInService(store: store, clock: clock) }
    var passwordLogins: PasswordLoginService {
        PasswordLoginService(store: store, clock: clock, linkBase: linkBase)
    }
    var onboarding: OnboardingService {
        OnboardingService(store: store, clock: clock, passwordLogins: passwordLogins)
    }
    var recovery: RecoveryService { RecoveryService(store: store, clock: clock, linkBase: linkBase) }
    var passwordResets: PasswordResetService {
        PasswordResetService(store: store, clock: clock, linkBase: linkBase)
    }
    var outbox: OutboxService { OutboxService(store: store, clock: clock) }
    var deadlines: DeadlineService { DeadlineService(store: store, clock: clock) }
    var scenarios: ScenarioLoader {
        ScenarioLoader(
            store: store, clock: clock, catalog: catalog, linkBase: linkBase, frozenOverride: frozenOverride)
    }
}
