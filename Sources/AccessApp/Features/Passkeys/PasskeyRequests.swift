import AccessAPI
import AccessCore
import Foundation

/// A passkey this device holds, as the "Use your passkey" sheet offers it: the account's name and the
/// credential's id, never its key.
public struct PasskeyAccount: Equatable, Sendable {
    /// Base64url, as the contract writes credential ids.
    public var credentialID: String
    public var userName: String

    public init(credentialID: String, userName: String) {
        self.credentialID = credentialID
        self.userName = userName
    }
}

/// A sign-in or re-auth ceremony's options with the passkeys this device can answer them with: the store is
/// read in the request (it is I/O), so the sheet opens on what the device holds.
public struct PasskeyPrompt: Equatable, Sendable {
    public var options: PasskeyRequestOptions
    /// Empty when this device holds no passkey for the options' relying party (or none the options allow).
    public var accounts: [PasskeyAccount]

    public init(options: PasskeyRequestOptions, accounts: [PasskeyAccount]) {
        self.options = options
        self.accounts = accounts
    }

    /// The device's passkeys for the options' relying party, those the options name when they name any (a
    /// re-auth names the account's; a discoverable sign-in names none).
    init(_ options: PasskeyRequestOptions, store: DevicePasskeyStore) {
        let allowed = Set(options.allowCredentials)
        let held = store.passkeys(forRP: options.rpId).filter {
            allowed.isEmpty || allowed.contains(Base64URL.encode($0.credentialID))
        }
        self.init(
            options: options,
            accounts: held.map {
                PasskeyAccount(credentialID: Base64URL.encode($0.credentialID), userName: $0.userName)
            }
        )
    }
}

/// Continue with passkey: `POST /auth/passkey/options`, then what this device holds for it.
struct PasskeySignInPrompt: APIRequest {
    func perform(_ api: APIContext) async throws -> PasskeyPrompt {
        let options = try await api.client.passkeySignInOptions()
        return PasskeyPrompt(options, store: api.client.configuration.passkeys)
    }
}

/// Verify it's you with a passkey: `POST /auth/reauth/passkey/options`, then what this device holds of them.
struct PasskeyReauthPrompt: APIRequest {
    func perform(_ api: APIContext) async throws -> PasskeyPrompt {
        let options = try await api.client.reauthPasskeyOptions()
        return PasskeyPrompt(options, store: api.client.configuration.passkeys)
    }
}

/// The sheet approved: the device signs the challenge with the chosen passkey (its counter saved first), then
/// `POST /auth/passkey/verify` signs in, and the client keeps the new session (and its file) before the app lands.
struct SignInWithDevicePasskey: APIRequest {
    var options: PasskeyRequestOptions
    var credentialID: String

    func perform(_ api: APIContext) async throws -> SignedIn {
        let answer = try DevicePasskeys.answer(options, credentialID: credentialID, api)
        let signedIn = try await api.client.passkeySignIn(
            challengeId: options.challengeId, credentialId: credentialID,
            clientDataJson: Base64URL.encode(answer.clientDataJSON),
            authenticatorData: Base64URL.encode(answer.authenticatorData),
            signature: Base64URL.encode(answer.signature), userHandle: Base64URL.encode(answer.userHandle),
            device: api.client.configuration.device)
        try await api.client.adopt(signedIn.session)
        return signedIn
    }
}

/// The sheet approved in Verify it's you: the device signs, then `POST /auth/reauth/passkey` grants.
struct ReauthWithDevicePasskey: APIRequest {
    var options: PasskeyRequestOptions
    var credentialID: String

    func perform(_ api: APIContext) async throws -> ReauthGrant {
        let answer = try DevicePasskeys.answer(options, credentialID: credentialID, api)
        return try await api.client.reauthPasskey(
            challengeId: options.challengeId, credentialId: credentialID,
            clientDataJson: Base64URL.encode(answer.clientDataJSON),
            authenticatorData: Base64URL.encode(answer.authenticatorData),
            signature: Base64URL.encode(answer.signature), userHandle: Base64URL.encode(answer.userHandle))
    }
}

/// "Add a passkey" approved on its sheet: the device makes the key pair for the registration options and keeps
/// it, then `POST /me/passkeys`. A registration the server refuses (or never answers) takes the key off the
/// device again, so the device never keeps a passkey the server does not have.
struct RegisterDevicePasskey: APIRequest {
    var options: PasskeyCreationOptions

    func perform(_ api: APIContext) async throws -> Passkey {
        guard let challenge = Base64URL.decode(options.challenge), let handle = Base64URL.decode(options.userHandle)
        else { throw DevicePasskeys.malformedOptions }
        let created = SoftwareAuthenticator.create(
            rpID: options.rpId, origin: PasskeyRelyingParty.origin(of: options.rpId), challenge: challenge,
            userHandle: handle, userName: options.userName)
        let store = api.client.configuration.passkeys
        do {
            try store.add(created.passkey)
        } catch {
            throw DevicePasskeys.notSaved(error)
        }
        do {
            return try await api.client.registerPasskey(
                challengeId: options.challengeId, clientDataJson: Base64URL.encode(created.clientDataJSON),
                attestationObject: Base64URL.encode(created.attestationObject),
                deviceName: api.client.configuration.device.deviceName)
        } catch {
            try? store.remove(credentialID: created.passkey.credentialID)
            throw error
        }
    }
}

/// The device's side of a ceremony: what it refuses before anything is sent, in the errors screens word.
enum DevicePasskeys {
    /// The device's own refusals: no call was made, so no status (0), as a phone refuses before any network.
    static let notOnDeviceCode = "passkey_not_on_device"
    static let malformedCode = "passkey_options_malformed"
    static let notSavedCode = "passkey_not_saved"

    static let malformedOptions = APIError.server(
        status: 0, code: malformedCode, message: "Your passkey couldn't be used here. Try again.")

    static func notSaved(_ error: DevicePasskeyStore.WriteError) -> APIError {
        .server(status: 0, code: notSavedCode, message: "This device couldn't save its passkey (\(error.reason)).")
    }

    /// Signs `options`' challenge with the passkey `credentialID` at the relying party's origin, counting it.
    static func answer(
        _ options: PasskeyRequestOptions, credentialID: String, _ api: APIContext
    ) throws -> SoftwareAuthenticator.Answer {
        guard let challenge = Base64URL.decode(options.challenge), let id = Base64URL.decode(credentialID) else {
            throw malformedOptions
        }
        let store = api.client.configuration.passkeys
        let answer: SoftwareAuthenticator.Answer?
        do {
            answer = try store.answer(
                credentialID: id, origin: PasskeyRelyingParty.origin(of: options.rpId), challenge: challenge)
        } catch {
            throw notSaved(error)
        }
        guard let answer else {
            throw APIError.server(
                status: 0, code: notOnDeviceCode, message: "This passkey isn't on this device any more.")
        }
        return answer
    }
}
