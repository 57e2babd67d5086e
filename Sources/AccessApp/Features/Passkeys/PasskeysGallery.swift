import AccessAPI
import AccessCore
import Foundation

/// The passkey states' made-up data: the account's passkeys, the ceremonies' options and this device's accounts.
enum PasskeysGallery {
    static let rpID = PasskeyRelyingParty.referenceID

    static func passkeys(now: Date, clonedSecond: Bool = false) -> [Passkey] {
        [
            Passkey(
                id: "cred_terminal", name: "Passkey", createdAt: now - 3 * 86400, lastUsedAt: now - 300,
                deviceName: "Terminal on qa-box", signCount: 4, attestationFormat: "none", flaggedAsCloned: false),
            Passkey(
                id: "cred_iphone", name: "iPhone", createdAt: now - 40 * 86400, lastUsedAt: nil,
                deviceName: "Nino's iPhone", signCount: 0, attestationFormat: "none",
                flaggedAsCloned: clonedSecond),
        ]
    }

    static func screen(
        now: Date, clonedSecond: Bool = false, selection: Int = 0, error: String? = nil
    )
        -> PasskeysScreen
    {
        PasskeysScreen(
            passkeys: passkeys(now: now, clonedSecond: clonedSecond), selection: selection, isLoading: false,
            error: error)
    }

    static func creationOptions(now: Date) -> PasskeyCreationOptions {
        PasskeyCreationOptions(
            challengeId: "pkc_fixture", challenge: "Y2hhbGxlbmdl", rpId: rpID,
            rpName: PasskeyRelyingParty.referenceName,
            userHandle: "dXNyXzdHOEg5SzJM", userName: "jdoe@mail.com", algorithms: [-7], excludeCredentials: [],
            userVerification: "required", attestation: "none", expiresAt: now + PasskeyRules.challengeLifetime)
    }

    static func prompt(now: Date, accounts: [String]) -> PasskeyPrompt {
        PasskeyPrompt(
            options: PasskeyRequestOptions(
                challengeId: "pkc_fixture", challenge: "Y2hhbGxlbmdl", rpId: rpID, allowCredentials: [],
                userVerification: "required", expiresAt: now + PasskeyRules.challengeLifetime),
            accounts: accounts.enumerated().map {
                PasskeyAccount(credentialID: "cred_\($0.offset)", userName: $0.element)
            }
        )
    }

    /// A refusal as the client reads it (the message is the backend's, which the screens word on their own).
    static func refusal(_ code: String, _ status: Int) -> APIError { .server(status: status, code: code, message: "") }

    /// Every method, and one passkey: Verify it's you offers Passkey.
    static var methodsWithPasskey: AuthMethods {
        var methods = SampleData.everyMethod
        methods.passkeys = 2
        return methods
    }

    /// Signed out on the sign-in screen, Continue with passkey chosen, the sheet of `prompt` over it.
    static func signInSheet(_ prompt: PasskeyPrompt, now: Date) -> AppState {
        var screen = SignInScreen.selecting(.passkey, SampleData.state([], now: now).context)
        screen.isWorking = !prompt.accounts.isEmpty
        var state = AppState(root: screen, now: now)
        state.overlay = .sheet(SignInScreen.passkeySheet(prompt))
        return state
    }

    /// Sign-in after Continue with passkey ended with `error` inline.
    static func signInError(_ error: String, now: Date) -> AppState {
        var screen = SignInScreen.selecting(.passkey, SampleData.state([], now: now).context)
        screen.error = error
        return AppState(root: screen, now: now)
    }

    static func picker(now: Date, error: String? = nil, isWorking: Bool = false) -> ReauthPickerScreen {
        let context = SampleData.state([], methods: methodsWithPasskey, now: now).context
        let selection = ReauthPickerScreen(flow: .changePhone).options(context).firstIndex(of: .method(.passkey)) ?? 0
        return ReauthPickerScreen(flow: .changePhone, selection: selection, isWorking: isWorking, error: error)
    }
}
