import Foundation

/// The numbers of two-factor authentication (issue 31), settled in docs/RULES.md's `two_factor.*`: the
/// backend enforces them and the app words its screens (attempts left, the lock's countdown, "10 codes",
/// the setup's expiry) from the same values. The code itself (6 digits, 30 s, ±1 step) is `TOTP`'s.
public enum TwoFactorLimits {
    /// Wrong authenticator or recovery codes an account may give before the step locks: counted per account,
    /// across its sessions and its authenticator re-auths, so signing in again does not reset them.
    public static let maxWrongCodes = 5
    /// How long the step stays locked after the last wrong code.
    public static let lockout: TimeInterval = 15 * 60
    /// How long a setup waits for its first code before it must start again.
    public static let pendingSetupLifetime: TimeInterval = 10 * 60
    /// Recovery codes made at a time: at setup, and each time they are regenerated.
    public static let recoveryCodeCount = 10
    /// Characters each side of a recovery code's dash (`xxxxx-xxxxx`), from Base32's lowercase alphabet:
    /// 50 bits a code, and no 0/1/8/9 to mistake for O/I/B/g.
    public static let recoveryCodeHalfLength = 5
    /// The issuer an authenticator app shows above the code: the product's name, as on every screen.
    public static let issuer = ProductBrand.name

    /// A recovery code as typed, in the one form codes are stored by: lowercase, without the dash or
    /// spaces. nil when what is left cannot be a code.
    public static func normalizedRecoveryCode(_ typed: String) -> String? {
        let kept = typed.lowercased().filter { $0 != "-" && $0 != " " }
        guard kept.count == 2 * recoveryCodeHalfLength,
            kept.allSatisfy({ ("a"..."z").contains($0) || ("2"..."7").contains($0) })
        else { return nil }
        return kept
    }
}
