import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Seed 004's device registration: every sign-in names its device (name, system, a stable identifier and
/// the public key for end-to-end encryption). One row per user and identifier, refreshed on each sign-in;
/// each session records the device it was issued to.
enum DeviceService {
    static let publicKeyLength = RequestBounds.devicePublicKeyBytes
    /// The contract's lengths, checked here because the generated server does not check them.
    static let maxNameLength = RequestBounds.maxDeviceNameLength
    static let maxIdentifierLength = 100
    static let maxSystemLength = 50
    static let maxPushTokenLength = 200

    static func validate(_ device: DeviceInfo) throws {
        let fields: [(String, String, Int)] = [
            ("device.device_name", device.deviceName, maxNameLength),
            ("device.system_name", device.systemName, maxSystemLength),
            ("device.system_version", device.systemVersion, maxSystemLength),
            ("device.identifier", device.identifier, maxIdentifierLength),
        ]
        for (name, value, limit) in fields
        where value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || value.count > limit {
            throw invalid("\(name): expected 1 to \(limit) characters.")
        }
        for (name, value) in [("device.apns_token", device.apnsToken), ("device.voip_token", device.voipToken)] {
            if let value, value.count > maxPushTokenLength {
                throw invalid("\(name): at most \(maxPushTokenLength) characters.")
            }
        }
        guard Data(base64Encoded: device.publicKey)?.count == publicKeyLength else {
            throw invalid("device.public_key: expected a Curve25519 public key, 32 bytes in base64.")
        }
    }

    /// The device's id for this user, made on its first sign-in; `isFirstUse` when it was made now.
    static func register(
        _ db: Database, userId: String, device: DeviceInfo, now: Date
    ) throws -> (id: String, isFirstUse: Bool) {
        if var known = try DeviceRecord.fetchOne(
            db, sql: "SELECT * FROM devices WHERE user_id = ? AND identifier = ?",
            arguments: [userId, device.identifier])
        {
            known.deviceName = device.deviceName
            known.systemName = device.systemName
            known.systemVersion = device.systemVersion
            known.publicKey = device.publicKey
            known.lastSeenAt = now.unix
            try known.update(db)
            return (known.id, false)
        }
        let id = Secrets.identifier(prefix: "dvc_")
        try DeviceRecord(
            id: id, userId: userId, identifier: device.identifier, deviceName: device.deviceName,
            systemName: device.systemName, systemVersion: device.systemVersion, publicKey: device.publicKey,
            createdAt: now.unix, lastSeenAt: now.unix
        ).insert(db)
        return (id, true)
    }

    /// Seed 003's "new device sign-in": to the account's email, or by text when it has none.
    static func sendNewDeviceNotice(_ db: Database, user: UserRecord, device: DeviceInfo, now: Date) throws {
        let recipient: (channel: OutboxChannel, address: String)
        if let email = user.email {
            recipient = (.email, email)
        } else if let phone = user.phone {
            recipient = (.sms, phone)
        } else {
            return  // An account reached only through a provider: the provider tells its own user.
        }
        try OutboxService.send(
            db,
            .init(
                channel: recipient.channel, recipient: recipient.address, kind: .newDeviceNotice, purpose: "sign_in"),
            now: now)
    }

    private static func invalid(_ message: String) -> BackendError {
        BackendError(.unprocessableContent, "invalid_field", message, rule: .deviceInvalid)
    }
}
