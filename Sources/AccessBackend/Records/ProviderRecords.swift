import AccessAPI
import GRDB

/// A row of `provider_tokens`: an id token the simulated Apple or Google minted, known by its keyed digest.
struct ProviderTokenRecord: Record {
    static let databaseTableName = "provider_tokens"

    var tokenHash: String
    var provider: SocialProvider
    var subject: String
    var expiresAt: Double
    var used = false
}

/// A row of `provider_grants`: a link between an account and a provider account, revoked on disconnect
/// and on delete.
struct ProviderGrantRecord: Record {
    static let databaseTableName = "provider_grants"

    var id: Int64? = nil
    var userId: String
    var provider: SocialProvider
    var subject: String
    var linkedAt: Double
    var revokedAt: Double? = nil
}

/// A row of `device_accounts`: an account the simulated sign-in sheet offers, from the scenario.
struct DeviceAccountRecord: Record {
    static let databaseTableName = "device_accounts"

    /// The sheet's order.
    var position: Int64? = nil
    var provider: SocialProvider
    var subject: String
    var email: String
    var name: String
}
