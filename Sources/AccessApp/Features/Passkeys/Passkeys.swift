import AccessAPI
import AccessCore

/// Passkeys (issue 53 item 2): the app as this device's authenticator. The hub's Passkeys row lists the account's
/// passkeys (add one, rename, remove after Verify it's you); sign-in offers Continue with passkey, and Verify it's
/// you offers the passkey. Each ceremony's prompt is the "Use your passkey" sheet (Sheet+Passkeys).
enum PasskeysFeature: Feature {
    static let screens: [any ScreenModel.Type] = [PasskeysScreen.self, RenamePasskeyScreen.self]
    static var sheetGallery: [GalleryEntry] { Sheet.passkeyGallery }
}

/// What a passkey ceremony is for: the words of its refusals differ by where the person can go next.
public enum PasskeyCeremony: Equatable, Sendable {
    case register, signIn, reauth
}

/// The passkey screens' words (seed 001's voice; the seeds say nothing about passkeys, so each is ours and listed
/// in docs/RULES.md's passkey section).
enum PasskeyWording {
    static let cancelledText = "Passkey cancelled. Nothing was sent."
    static let addedText = "Passkey added."
    static let renamedText = "Passkey renamed."
    static func removedText(_ name: String) -> String { "\(name) removed." }

    /// How each refusal of the `passkey.*` rules (and the device's own) reads on the screen that gets it.
    static func refusal(_ failure: APIError, _ ceremony: PasskeyCeremony) -> String {
        let another = ceremony == .reauth ? "Choose another way to verify." : "Sign in another way."
        switch failure {
        case .codeExpired:
            // 410 passkey_challenge_expired: past its 5 minutes, or its answer replayed.
            return "Your passkey request expired. Try again."
        case .server(404, "passkey_not_found", _):
            return "This passkey was removed from your account. \(another)"
        case .server(403, "passkey_counter_went_back", _):
            return "This passkey was turned off because a copy of it was used. \(another)"
        case .server(_, "passkey_wrong_origin", _), .server(_, "passkey_wrong_rp", _):
            return "This passkey is for a different website. \(another)"
        case .server(_, "passkey_user_not_verified", _), .server(_, "passkey_user_not_present", _):
            return "Your passkey didn't confirm it's you. Try again."
        case .server(409, "passkey_exists", _):
            return "This passkey is already on your account."
        case .server(0, DevicePasskeys.notOnDeviceCode, _):
            return "This passkey isn't on this device any more. \(another)"
        case .server(_, let code, _) where code.hasPrefix("passkey_") && code != DevicePasskeys.notSavedCode:
            // The other checks (signature, attestation, CBOR, type, challenge): the device's answer did not pass.
            return "Your passkey couldn't be checked. Try again."
        default:
            return failure.message
        }
    }
}

/// Removing a passkey: Verify it's you with any method but a passkey (a passkey's grant does not verify removing
/// one, `passkey.removed`), then the confirmation sheet on the list.
public struct RemovePasskeyFlow: SensitiveFlow {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    public var target: ReauthMethod? { .passkey }

    public var pickerExplanation: String { "To remove \(name), confirm with one of your sign-in methods." }

    public func start(_ context: ScreenContext) -> [Command] {
        [.returnTo(PasskeysScreen.self, with: .verifiedToRemove(id: id, name: name))]
    }
}
