import AccessAPI
import AccessCore
import Foundation
import Logging

/// A scenario is this device's state too (issue 53 item 3): its passkeys "on this device" go into this device's
/// authenticator (`GET /_admin/device/passkeys`), in place of those it held for the reference relying party, whose
/// accounts went with the old world.
public enum ScenarioDevicePasskeys {
    public static func take(_ client: AccountClient) async throws {
        let kits = try await client.adminDevicePasskeys().passkeys
        let held = try kits.map(DevicePasskeyConsole.held)
        do {
            try client.configuration.passkeys.replace(forRP: PasskeyRelyingParty.referenceID, with: held)
        } catch {
            throw DevicePasskeyConsole.notKept(error)
        }
    }
}

/// The palette's passkey edge states (issue 53 item 3), each made for real: on the backend by real ceremonies and
/// admin calls, on this device in its authenticator.
public enum DevicePasskeyAction: String, CaseIterable, Equatable, Sendable {
    case clone
    case removeOnServer
    case resetCounter

    var title: String {
        switch self {
        case .clone: "Passkey: clone this device's authenticator"
        case .removeOnServer: "Passkey: remove on the server only"
        case .resetCounter: "Passkey: reset the signature counter"
        }
    }

    /// Before the reason in the toast of a failure.
    var notDone: String {
        switch self {
        case .clone: "Not cloned"
        case .removeOnServer: "Not removed"
        case .resetCounter: "Not reset"
        }
    }

    var detail: String {
        switch self {
        case .clone: "a copy signs in on another device first: this device's next use is refused as a clone"
        case .removeOnServer: "the server forgets this device's passkey, as another device would; this device keeps it"
        case .resetCounter: "this device's counter back to 0: its next use is refused as a clone"
        }
    }
}

/// Carries out a `DevicePasskeyAction` on this device's passkey: the signed-in account's when this device holds one
/// for it, else the one added last. Answers what to tell QA.
struct ActOnThisDevicesPasskey: APIRequest {
    let action: DevicePasskeyAction

    // Toasts: a line of at most 74 characters fits the toast at 80 columns.
    static let noPasskeyText = "This device holds no passkey. Try the passkey scenario."
    static let clonedText = "Cloned: a copy signed in elsewhere. Its next use here is refused."
    static let removedText = "Removed on the server only. This device still holds the passkey."
    static let resetText = "Counter reset to 0. This passkey's next use is refused as a clone."
    static let cloneDevice = DeviceInfo(
        deviceName: "Cloned authenticator", systemName: "Unknown", systemVersion: "0", identifier: "qa-passkey-clone",
        publicKey: Data(repeating: 2, count: 32).base64EncodedString())

    func perform(_ api: APIContext) async throws -> String {
        let store = api.client.configuration.passkeys
        guard let passkey = await Self.chosen(api) else {
            throw APIError.server(status: 0, code: "no_device_passkey", message: Self.noPasskeyText)
        }
        let id = Base64URL.encode(passkey.credentialID)
        switch action {
        case .clone:
            try await Self.signInWithCopy(of: passkey, api)
            return Self.clonedText
        case .removeOnServer:
            try await api.client.adminRemovePasskey(id: id)
            return Self.removedText
        case .resetCounter:
            do {
                try store.resetSignCount(credentialID: passkey.credentialID)
            } catch {
                throw DevicePasskeyConsole.notKept(error)
            }
            return Self.resetText
        }
    }

    /// The signed-in account's passkey on this device (the reference backend's user handle is the account id's
    /// bytes), else the one added last.
    static func chosen(_ api: APIContext) async -> DevicePasskey? {
        let held = api.client.configuration.passkeys.passkeys(forRP: PasskeyRelyingParty.referenceID)
        if let userId = await api.client.userId, let own = held.last(where: { $0.userHandle == Array(userId.utf8) }) {
            return own
        }
        return held.last
    }

    /// The clone: another device holding the same key and counter answers a real discoverable sign-in first, as the
    /// app's own sign-in does (`SignInWithDevicePasskey`), so the server's counter passes the one this device will
    /// answer with next.
    private static func signInWithCopy(of passkey: DevicePasskey, _ api: APIContext) async throws {
        var configuration = api.client.configuration
        configuration.device = cloneDevice
        configuration.passkeys = .ephemeral([passkey])
        let clone = AccountClient(
            configuration: configuration, sessionStore: nil,
            logger: Logger(label: "accessdeck.passkey-clone") { _ in SwiftLogNoOpLogHandler() })
        do {
            let elsewhere = APIContext(client: clone, cache: nil, now: api.now)
            let options = try await clone.passkeySignInOptions()
            _ = try await SignInWithDevicePasskey(
                options: options, credentialID: Base64URL.encode(passkey.credentialID)
            ).perform(elsewhere)
        } catch {
            await clone.shutdown()
            throw error
        }
        await clone.shutdown()
    }
}

enum DevicePasskeyConsole {
    /// A scenario's kit as this device's authenticator holds it.
    static func held(_ kit: DevicePasskeyKit) throws -> DevicePasskey {
        guard let credentialID = Base64URL.decode(kit.credentialId), let userHandle = Base64URL.decode(kit.userHandle),
            let key = Base64URL.decode(kit.privateKey), let count = UInt32(exactly: kit.signCount),
            let passkey = try? DevicePasskey(
                credentialID: credentialID, rpID: kit.rpId, userHandle: userHandle, userName: kit.userName,
                signCount: count, privateKey: key)
        else {
            throw APIError.server(
                status: 0, code: "malformed_device_passkey",
                message: "The backend handed over a passkey that is not one.")
        }
        return passkey
    }

    /// The authenticator's file could not be written: said as it is, never as "offline".
    static func notKept(_ error: any Error) -> APIError {
        let reason = (error as? DevicePasskeyStore.WriteError)?.reason ?? "\(error)"
        return .server(
            status: 0, code: "passkeys_not_kept", message: "This device's passkeys were not saved: \(reason)")
    }
}
