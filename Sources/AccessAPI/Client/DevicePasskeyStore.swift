import AccessCore
import Foundation
import Synchronization

/// This device's passkeys (issue 53), as a phone keeps them: the credentials `SoftwareAuthenticator` made, with
/// their private keys and signature counters, in `passkeys.json` beside `device.json` (0600 in the 0700 state
/// folder). Keyed by relying party, not by backend: every world of the reference backend is the one relying party
/// `accessdeck.localhost`, so a passkey whose account is gone stays on the device, as it would on a phone.
///
/// Every change is written before it is answered: a signature is never handed out with its counter unsaved, so a
/// crash cannot make this device's next answer repeat a counter (which the relying party would take for a clone).
public final class DevicePasskeyStore: Sendable {
    public struct WriteError: Error, Equatable, Sendable {
        public var reason: String
    }

    /// Where it is kept; nil for a store that lives only as long as this process (tests, `render`).
    public let fileURL: URL?
    /// A file that was there but could not be read: it is left as it was, and this run's passkeys are kept in
    /// memory only, so a damaged file never loses the keys in it to an overwrite.
    public let isDamaged: Bool
    private let kept: Mutex<[DevicePasskey]>

    private init(fileURL: URL?, passkeys: [DevicePasskey], isDamaged: Bool) {
        self.fileURL = fileURL
        self.isDamaged = isDamaged
        kept = Mutex(passkeys)
    }

    /// `passkeys.json` in the state folder, beside `device.json`.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        SessionStore.stateFolder(environment: environment).appendingPathComponent("passkeys.json")
    }

    /// The passkeys kept at `fileURL` (none when there is no file yet).
    public static func load(at fileURL: URL) -> DevicePasskeyStore {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else {
            return DevicePasskeyStore(fileURL: fileURL, passkeys: [], isDamaged: false)
        }
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data) else {
            return DevicePasskeyStore(fileURL: nil, passkeys: [], isDamaged: true)
        }
        return DevicePasskeyStore(fileURL: fileURL, passkeys: stored.passkeys, isDamaged: false)
    }

    public static func ephemeral(_ passkeys: [DevicePasskey] = []) -> DevicePasskeyStore {
        DevicePasskeyStore(fileURL: nil, passkeys: passkeys, isDamaged: false)
    }

    /// Every passkey on this device, oldest first.
    public var passkeys: [DevicePasskey] { kept.withLock { $0 } }

    /// The passkeys a relying party can ask for: a discoverable sign-in offers each of them.
    public func passkeys(forRP rpID: String) -> [DevicePasskey] {
        kept.withLock { $0.filter { $0.rpID == rpID } }
    }

    public func passkey(credentialID: [UInt8]) -> DevicePasskey? {
        kept.withLock { $0.first { $0.credentialID == credentialID } }
    }

    /// Keeps a passkey just made; one with the same credential id is replaced.
    public func add(_ passkey: DevicePasskey) throws(WriteError) {
        try change { passkeys in
            passkeys.removeAll { $0.credentialID == passkey.credentialID }
            passkeys.append(passkey)
        }
    }

    /// This device's passkeys for `rpID` become `passkeys` (a scenario's load: the device is part of the state);
    /// those of other relying parties stay.
    public func replace(forRP rpID: String, with passkeys: [DevicePasskey]) throws(WriteError) {
        try change { kept in
            kept.removeAll { $0.rpID == rpID }
            kept += passkeys.filter { $0.rpID == rpID }
        }
    }

    public func remove(credentialID: [UInt8]) throws(WriteError) {
        try change { passkeys in passkeys.removeAll { $0.credentialID == credentialID } }
    }

    /// Signs a sign-in or re-auth challenge with the passkey `credentialID` and keeps its counter: nil when this
    /// device does not hold it.
    public func answer(
        credentialID: [UInt8], origin: String, challenge: [UInt8], userVerified: Bool = true
    ) throws(WriteError) -> SoftwareAuthenticator.Answer? {
        var answer: SoftwareAuthenticator.Answer?
        try change { passkeys in
            guard let index = passkeys.firstIndex(where: { $0.credentialID == credentialID }) else { return }
            answer = SoftwareAuthenticator.answer(
                &passkeys[index], origin: origin, challenge: challenge, userVerified: userVerified)
        }
        return answer
    }

    /// Sets the passkey's counter back to zero, as an authenticator reset (or restored from an old backup) would:
    /// its next answer carries a counter the relying party has seen grow past.
    public func resetSignCount(credentialID: [UInt8]) throws(WriteError) {
        try change { passkeys in
            for index in passkeys.indices where passkeys[index].credentialID == credentialID {
                passkeys[index].signCount = 0
            }
        }
    }

    /// Applies `edit` and writes the result before it is kept: a change that cannot be written is not made.
    private func change(_ edit: (inout [DevicePasskey]) -> Void) throws(WriteError) {
        try kept.withLock { (passkeys: inout [DevicePasskey]) throws(WriteError) in
            var edited = passkeys
            edit(&edited)
            if let fileURL {
                do {
                    let data = try JSONEncoder().encode(Stored(passkeys: edited))
                    try PrivateStateFile.write(data, to: fileURL)
                } catch let error as PrivateStateFile.WriteError {
                    throw WriteError(reason: error.reason)
                } catch {
                    throw WriteError(reason: "cannot encode the passkeys")
                }
            }
            passkeys = edited
        }
    }

    private struct Stored: Codable {
        var passkeys: [DevicePasskey]
    }
}
