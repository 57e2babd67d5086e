/// Why a relying party refuses a ceremony, one case per check WebAuthn §7.1 and §7.2 ask for. `code` is
/// what the backend's error body says, so a QA run can tell them apart.
public enum WebAuthnError: Error, Equatable, Sendable {
    case malformed(String)
    case wrongType(expected: String)
    case challengeMismatch
    case wrongOrigin(String)
    case wrongRelyingParty
    case userNotPresent
    case userNotVerified
    case unsupportedAlgorithm(Int)
    case unsupportedAttestation(String)
    case badAttestation(String)
    case badSignature
    /// A counter that did not grow where it grew before: a cloned authenticator (§6.1.1).
    case counterWentBack(stored: UInt32, received: UInt32)

    public var code: String {
        switch self {
        case .malformed: "passkey_malformed"
        case .wrongType: "passkey_wrong_type"
        case .challengeMismatch: "passkey_challenge_mismatch"
        case .wrongOrigin: "passkey_wrong_origin"
        case .wrongRelyingParty: "passkey_wrong_rp"
        case .userNotPresent: "passkey_user_not_present"
        case .userNotVerified: "passkey_user_not_verified"
        case .unsupportedAlgorithm: "passkey_unsupported_algorithm"
        case .unsupportedAttestation: "passkey_unsupported_attestation"
        case .badAttestation: "passkey_bad_attestation"
        case .badSignature: "passkey_bad_signature"
        case .counterWentBack: "passkey_counter_went_back"
        }
    }
}
