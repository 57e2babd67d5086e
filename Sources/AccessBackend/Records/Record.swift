import AccessAPI
import GRDB

/// A row of one table, read and written by column name: a property `expiresAt` is the column `expires_at`.
/// Times are Unix seconds (`Double`), as every table stores them, so the rules' SQL compares them as numbers.
protocol Record: Codable, FetchableRecord, PersistableRecord, Sendable {}

extension Record {
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}

// The contract's enums are stored as their wire spelling, so a state column holds exactly what the API says.
extension AccessLevel: DatabaseValueConvertible {}
extension OnboardingStep: DatabaseValueConvertible {}
extension OTPPurpose: DatabaseValueConvertible {}
extension OutboxChannel: DatabaseValueConvertible {}
extension OutboxKind: DatabaseValueConvertible {}
extension OutboxStatus: DatabaseValueConvertible {}
extension ReauthMethod: DatabaseValueConvertible {}
extension SessionMethod: DatabaseValueConvertible {}
extension SignInChannel: DatabaseValueConvertible {}
extension SocialProvider: DatabaseValueConvertible {}
extension UserRole: DatabaseValueConvertible {}
