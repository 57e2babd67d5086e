import Foundation

/// The numbers of the passkey rules (issue 53, docs/RULES.md's `passkey.*`). The seeds say nothing about passkeys;
/// these are our choices, in the seeds' manner: a challenge lives as long as a texted code.
public enum PasskeyRules {
    /// How long a ceremony's challenge may be answered (one-shot either way). WebAuthn recommends 300 s to 600 s
    /// for a timeout with user verification; the shorter end, as long as a code.
    public static let challengeLifetime: TimeInterval = 5 * 60
    /// The longest name a passkey may be given, in characters (code points, as the contract's maxLength counts).
    public static let maxNameLength = 64
    /// What a passkey is called when its registration gives no name.
    public static let defaultName = "Passkey"
    /// Bytes of a challenge: WebAuthn §13.4.3 asks for at least 16.
    public static let challengeBytes = 32
}

/// The relying party the reference backend is: its id, and the origin a client of it writes in the client data.
/// A named configuration rather than the request's Host, so a ceremony is judged the same on every port and in
/// every world; docs/reference-backend.md says it, and a client of the reference backend (the app's authenticator,
/// conform, the python-fido2 tests) answers for it.
public enum PasskeyRelyingParty {
    public static let referenceID = "accessdeck.localhost"
    public static let referenceName = "AccessDeck"
    /// The origin a client answers with: the relying party's id over https, as a browser on that site would.
    public static func origin(of rpID: String) -> String { "https://\(rpID)" }
    public static let reference = RelyingParty(id: referenceID, origins: [origin(of: referenceID)])
}
