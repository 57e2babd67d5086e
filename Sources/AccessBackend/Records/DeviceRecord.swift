import GRDB

/// A row of `devices`: a device an account signed in from (seed 004), one per account and identifier.
struct DeviceRecord: Record {
    static let databaseTableName = "devices"

    var id: String
    var userId: String
    var identifier: String
    var deviceName: String
    var systemName: String
    var systemVersion: String
    /// Curve25519, base64.
    var publicKey: String
    var createdAt: Double
    var lastSeenAt: Double
}
