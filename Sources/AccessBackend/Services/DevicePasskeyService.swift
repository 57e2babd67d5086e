import AccessAPI
import AccessCore
import Crypto
import Foundation
import GRDB

/// A scenario's passkeys (issue 53 item 3): each made at the scenario's load with a new P-256 key pair, registered
/// on the server unless the scenario says it was removed there, and, when it is on this device, its private key
/// kept sealed for the app's authenticator to take (`GET /_admin/device/passkeys`). A passkey on another device
/// keeps only its public key: nobody can answer for it, as nobody here holds that phone.
struct DevicePasskeyService: Sendable {
    let store: Store
    let relyingParty: RelyingParty

    /// What this device's authenticator would hold, as the app's `DevicePasskeyStore` keeps it.
    func kits() async throws -> DevicePasskeyKits {
        try await store.pool.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM device_passkeys ORDER BY rowid")
            return DevicePasskeyKits(
                passkeys: try rows.map { row in
                    let userId: String = row["user_id"]
                    guard let raw = store.devicePasskeySealer.open(row["private_key_sealed"]) else {
                        throw StoreError("a device passkey's key does not open under this database's key")
                    }
                    return DevicePasskeyKit(
                        credentialId: row["credential_id"], rpId: relyingParty.id,
                        userHandle: Base64URL.encode(PasskeyService.userHandle(userId)), userName: row["user_name"],
                        privateKey: Base64URL.encode([UInt8](raw)), signCount: row["sign_count"])
                })
        }
    }

    /// At a scenario's load, after `person` was inserted.
    static func seed(_ db: Database, store: Store, person: Scenario.Person, now: Date) throws {
        let passkeys = person.passkeys ?? []
        guard !passkeys.isEmpty else { return }
        var generator = SystemRandomNumberGenerator()
        for passkey in passkeys {
            let key = P256.Signing.PrivateKey()
            let credentialID = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let id = Base64URL.encode(credentialID)
            let signCount = Int64(passkey.signCount ?? 0)
            let onThisDevice = passkey.onThisDevice == true
            if passkey.removedOnServer != true {
                let lastUsed = passkey.lastUsedDaysAgo.map { now.addingTimeInterval(-$0 * 86_400) }
                try PasskeyRecord(
                    credentialId: id, userId: person.id, publicKey: Data(COSEKey.es256(key.publicKey).cbor.encoded),
                    signCount: signCount, name: passkey.name, createdAt: (lastUsed ?? now).unix,
                    lastUsedAt: lastUsed?.unix, deviceName: passkey.deviceName ?? (onThisDevice ? "Terminal" : nil),
                    attestationFormat: "none", flaggedAt: nil
                ).insert(db)
            }
            if onThisDevice {
                try db.execute(
                    sql: """
                        INSERT INTO device_passkeys (credential_id, user_id, user_name, private_key_sealed, sign_count)
                        VALUES (?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, person.id, person.email ?? person.phone ?? person.id,
                        try store.devicePasskeySealer.seal(key.rawRepresentation), signCount,
                    ])
            }
        }
        try PasskeyService.countLive(db, userId: person.id)
    }
}
