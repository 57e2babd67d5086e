import Crypto
import Foundation
import Testing

@testable import AccessCore

/// A relying party's checks (WebAuthn §7.1, §7.2) over what the software authenticator makes: a good
/// ceremony passes, and each bad case is refused with its own code.
@Suite struct WebAuthnTests {
    let party = RelyingParty(id: "accessdeck.test", origins: ["https://accessdeck.test"])
    let origin = "https://accessdeck.test"
    let challenge: [UInt8] = Array(0..<32)
    let user: [UInt8] = Array("user-42".utf8)

    func created(_ attestation: SoftwareAuthenticator.Attestation = .none) -> SoftwareAuthenticator.Created {
        SoftwareAuthenticator.create(
            rpID: party.id, origin: origin, challenge: challenge, userHandle: user, userName: "ana",
            attestation: attestation)
    }

    func register(_ made: SoftwareAuthenticator.Created) throws -> RelyingParty.Registration {
        try party.verifyRegistration(
            clientDataJSON: made.clientDataJSON, attestationObject: made.attestationObject, challenge: challenge)
    }

    @Test(arguments: [SoftwareAuthenticator.Attestation.none, .packedSelf])
    func aRegistrationIsAccepted(attestation: SoftwareAuthenticator.Attestation) throws {
        let made = created(attestation)
        let registration = try register(made)
        #expect(registration.credentialID == made.passkey.credentialID)
        #expect(registration.publicKey == made.passkey.publicKey)
        #expect(registration.attestationFormat == (attestation == .none ? "none" : "packed"))
        #expect(registration.userVerified && registration.signCount == 0)
        #expect(registration.aaguid == SoftwareAuthenticator.aaguid)
    }

    @Test func aSignInIsAcceptedAndItsCounterKept() throws {
        var passkey = created().passkey
        let answer = SoftwareAuthenticator.answer(&passkey, origin: origin, challenge: challenge)
        let assertion = try party.verifyAssertion(
            clientDataJSON: answer.clientDataJSON, authenticatorData: answer.authenticatorData,
            signature: answer.signature, challenge: challenge, publicKey: passkey.publicKey, storedSignCount: 0)
        #expect(assertion.signCount == 1 && assertion.userVerified)
        #expect(answer.userHandle == user && answer.credentialID == passkey.credentialID)
    }

    // MARK: Client data

    @Test func aRegistrationSentAsASignInIsTheWrongType() throws {
        var passkey = created().passkey
        let answer = SoftwareAuthenticator.answer(&passkey, origin: origin, challenge: challenge)
        let made = created()
        #expect(throws: WebAuthnError.wrongType(expected: "webauthn.create")) {
            try party.verifyRegistration(
                clientDataJSON: answer.clientDataJSON, attestationObject: made.attestationObject, challenge: challenge)
        }
    }

    @Test func anotherChallengeIsRefused() {
        let made = created()
        var other = challenge
        other[31] ^= 1
        #expect(throws: WebAuthnError.challengeMismatch) {
            try party.verifyRegistration(
                clientDataJSON: made.clientDataJSON, attestationObject: made.attestationObject, challenge: other)
        }
    }

    @Test func anotherOriginIsRefused() {
        let made = SoftwareAuthenticator.create(
            rpID: party.id, origin: "https://evil.test", challenge: challenge, userHandle: user, userName: "ana")
        #expect(throws: WebAuthnError.wrongOrigin("https://evil.test")) { try register(made) }
    }

    @Test func clientDataThatIsNotJSONIsMalformed() {
        let made = created()
        #expect(throws: WebAuthnError.self) {
            try party.verifyRegistration(
                clientDataJSON: Array("{\"type\":".utf8), attestationObject: made.attestationObject,
                challenge: challenge)
        }
    }

    // MARK: Authenticator data

    @Test func aCredentialForAnotherRelyingPartyIsRefused() {
        let made = SoftwareAuthenticator.create(
            rpID: "other.test", origin: origin, challenge: challenge, userHandle: user, userName: "ana")
        #expect(throws: WebAuthnError.wrongRelyingParty) { try register(made) }
    }

    @Test func withoutTheUserPresentFlagASignInIsRefused() throws {
        var passkey = created().passkey
        let answer = SoftwareAuthenticator.answer(&passkey, origin: origin, challenge: challenge)
        var data = try AuthenticatorData(bytes: answer.authenticatorData)
        data.flags.remove(.userPresent)
        let resigned = try resign(data.encoded, answer.clientDataJSON, passkey)
        #expect(throws: WebAuthnError.userNotPresent) {
            try party.verifyAssertion(
                clientDataJSON: answer.clientDataJSON, authenticatorData: data.encoded, signature: resigned,
                challenge: challenge, publicKey: passkey.publicKey, storedSignCount: 0)
        }
    }

    @Test func withoutUserVerificationASignInIsRefusedWhereItIsRequired() throws {
        var passkey = created().passkey
        let answer = SoftwareAuthenticator.answer(&passkey, origin: origin, challenge: challenge, userVerified: false)
        #expect(throws: WebAuthnError.userNotVerified) {
            try party.verifyAssertion(
                clientDataJSON: answer.clientDataJSON, authenticatorData: answer.authenticatorData,
                signature: answer.signature, challenge: challenge, publicKey: passkey.publicKey, storedSignCount: 0)
        }
        let allowed = try party.verifyAssertion(
            clientDataJSON: answer.clientDataJSON, authenticatorData: answer.authenticatorData,
            signature: answer.signature, challenge: challenge, publicKey: passkey.publicKey, storedSignCount: 0,
            requireUserVerification: false)
        #expect(!allowed.userVerified)
    }

    @Test func trailingBytesInTheAuthenticatorDataAreRefused() throws {
        let made = created()
        let object = try CBORDecoder.decode(made.attestationObject)
        let data = try #require(object[key: "authData"]?.bytesValue)
        #expect(throws: WebAuthnError.malformed("authenticator data has trailing bytes")) {
            try AuthenticatorData(bytes: data + [0x00])
        }
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(bytes: Array(data.dropLast())) }
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(bytes: Array(data.prefix(36))) }
    }

    @Test func authenticatorDataReadsBackAsWritten() throws {
        let made = created()
        let bytes = try #require(try CBORDecoder.decode(made.attestationObject)[key: "authData"]?.bytesValue)
        let data = try AuthenticatorData(bytes: bytes)
        #expect(data.encoded == bytes)
        #expect(data.attestedCredential?.credentialID == made.passkey.credentialID)
        #expect(data.flags.contains([.userPresent, .userVerified, .attestedCredentialData]))
    }

    @Test func trailingBytesInTheAttestationObjectAreRefused() {
        let made = created()
        #expect(throws: WebAuthnError.self) {
            try party.verifyRegistration(
                clientDataJSON: made.clientDataJSON, attestationObject: made.attestationObject + [0x00],
                challenge: challenge)
        }
    }

    // MARK: Signatures and attestation

    @Test func aSignatureOverOtherBytesIsRefused() {
        var passkey = created().passkey
        let answer = SoftwareAuthenticator.answer(&passkey, origin: origin, challenge: challenge)
        let stranger = created().passkey
        #expect(throws: WebAuthnError.badSignature) {
            try party.verifyAssertion(
                clientDataJSON: answer.clientDataJSON, authenticatorData: answer.authenticatorData,
                signature: answer.signature, challenge: challenge, publicKey: stranger.publicKey, storedSignCount: 0)
        }
        #expect(throws: WebAuthnError.badSignature) {
            try party.verifyAssertion(
                clientDataJSON: answer.clientDataJSON, authenticatorData: answer.authenticatorData,
                signature: [0x30, 0x00], challenge: challenge, publicKey: passkey.publicKey, storedSignCount: 0)
        }
    }

    @Test func packedSelfAttestationWithAnotherKeysSignatureIsRefused() throws {
        let made = created(.packedSelf)
        let other = created(.packedSelf)
        var object = try CBORDecoder.decode(made.attestationObject)
        let foreign = try #require(try CBORDecoder.decode(other.attestationObject)[key: "attStmt"])
        object = .map(object.mapValue!.map { $0.key == .text("attStmt") ? .init($0.key, foreign) : $0 })
        #expect(throws: WebAuthnError.badAttestation("the signature does not verify")) {
            try party.verifyRegistration(
                clientDataJSON: made.clientDataJSON, attestationObject: object.encoded, challenge: challenge)
        }
    }

    @Test func noneWithAStatementAndUnknownFormatsAreRefused() throws {
        let made = created()
        let object = try CBORDecoder.decode(made.attestationObject)
        func with(_ key: String, _ value: CBOR) -> [UInt8] {
            CBOR.map(object.mapValue!.map { $0.key == .text(key) ? .init($0.key, value) : $0 }).encoded
        }
        #expect(throws: WebAuthnError.badAttestation("\"none\" with a statement")) {
            try party.verifyRegistration(
                clientDataJSON: made.clientDataJSON,
                attestationObject: with("attStmt", .map([.init(.text("sig"), .bytes([1]))])), challenge: challenge)
        }
        #expect(throws: WebAuthnError.unsupportedAttestation("tpm")) {
            try party.verifyRegistration(
                clientDataJSON: made.clientDataJSON, attestationObject: with("fmt", .text("tpm")), challenge: challenge)
        }
    }

    // MARK: The counter

    @Test func aCounterThatDoesNotGrowIsACloneAndZeroAlwaysIsNot() throws {
        var passkey = created().passkey
        var copy = passkey
        let first = SoftwareAuthenticator.answer(&passkey, origin: origin, challenge: challenge)
        let assertion = try party.verifyAssertion(
            clientDataJSON: first.clientDataJSON, authenticatorData: first.authenticatorData,
            signature: first.signature, challenge: challenge, publicKey: passkey.publicKey, storedSignCount: 0)
        // The copy answers with the counter the original already used.
        let cloned = SoftwareAuthenticator.answer(&copy, origin: origin, challenge: challenge)
        #expect(throws: WebAuthnError.counterWentBack(stored: 1, received: 1)) {
            try party.verifyAssertion(
                clientDataJSON: cloned.clientDataJSON, authenticatorData: cloned.authenticatorData,
                signature: cloned.signature, challenge: challenge, publicKey: passkey.publicKey,
                storedSignCount: assertion.signCount)
        }
        let next = SoftwareAuthenticator.answer(&passkey, origin: origin, challenge: challenge)
        #expect(throws: Never.self) {
            try party.verifyAssertion(
                clientDataJSON: next.clientDataJSON, authenticatorData: next.authenticatorData,
                signature: next.signature, challenge: challenge, publicKey: passkey.publicKey,
                storedSignCount: assertion.signCount)
        }
    }

    @Test func anAuthenticatorWithoutACounterIsNotAClone() throws {
        var passkey = created().passkey
        let answer = SoftwareAuthenticator.answer(&passkey, origin: origin, challenge: challenge)
        var data = try AuthenticatorData(bytes: answer.authenticatorData)
        data.signCount = 0
        let signature = try resign(data.encoded, answer.clientDataJSON, passkey)
        #expect(throws: Never.self) {
            try party.verifyAssertion(
                clientDataJSON: answer.clientDataJSON, authenticatorData: data.encoded, signature: signature,
                challenge: challenge, publicKey: passkey.publicKey, storedSignCount: 0)
        }
    }

    // MARK: Keys

    @Test func anEdDSAKeyVerifiesItsSignatures() throws {
        let key = Curve25519.Signing.PrivateKey()
        let cose = try COSEKey(cbor: COSEKey.ed25519(key.publicKey).cbor)
        let message: [UInt8] = Array("signed".utf8)
        #expect(cose.algorithm == .edDSA)
        #expect(cose.isValidSignature([UInt8](try key.signature(for: message)), for: message))
        #expect(!cose.isValidSignature([UInt8](try key.signature(for: message)), for: message + [0]))
    }

    @Test func aKeyWhoseTypeAlgorithmOrCurveDisagreeIsRefused() throws {
        let good = COSEKey.es256(P256.Signing.PrivateKey().publicKey).cbor
        func replacing(_ label: Int, with value: CBOR?) -> CBOR {
            .map(good.mapValue!.compactMap { $0.key == .int(label) ? value.map { v in .init(.int(label), v) } : $0 })
        }
        #expect(throws: WebAuthnError.unsupportedAlgorithm(-257)) { try COSEKey(cbor: replacing(3, with: .int(-257))) }
        #expect(throws: WebAuthnError.self) { try COSEKey(cbor: replacing(1, with: .int(1))) }
        #expect(throws: WebAuthnError.self) { try COSEKey(cbor: replacing(-1, with: .int(2))) }
        #expect(throws: WebAuthnError.self) { try COSEKey(cbor: replacing(-3, with: nil)) }
        #expect(throws: WebAuthnError.self) { try COSEKey(cbor: replacing(-2, with: .bytes([1, 2, 3]))) }
        // A point that is not on the curve.
        #expect(throws: WebAuthnError.self) {
            try COSEKey(cbor: replacing(-3, with: .bytes(Array(repeating: 1, count: 32))))
        }
        #expect(throws: WebAuthnError.self) { try COSEKey(cbor: .array([])) }
    }

    // MARK: The key file

    @Test func thePrivateKeyIsInNoDescriptionButSurvivesItsFile() throws {
        let passkey = created().passkey
        let file = try JSONEncoder().encode(passkey)
        let raw = try #require(
            (try JSONSerialization.jsonObject(with: file) as? [String: Any])?["privateKey"] as? [Int])
        var dumped = ""
        dump(passkey, to: &dumped)
        for shown in [String(describing: passkey), String(reflecting: passkey), dumped, "\(passkey)"] {
            #expect(!shown.contains(raw.map(String.init).joined(separator: ", ")))
            #expect(shown.contains("<private key>") || !shown.contains("privateKey: ["))
        }
        #expect(try JSONDecoder().decode(DevicePasskey.self, from: file) == passkey)
        let damaged = String(decoding: file, as: UTF8.self).replacingOccurrences(
            of: "\"privateKey\":[", with: "\"privateKey\":[0,")
        #expect(throws: (any Error).self) { try JSONDecoder().decode(DevicePasskey.self, from: Data(damaged.utf8)) }
    }

    @Test func base64URLRoundTripsAndRefusesTheOtherAlphabet() {
        for length in 0..<8 {
            let bytes = (0..<length).map { UInt8(250 - $0) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.decode("+/8") == nil && Base64URL.decode("AQ==") == nil && Base64URL.decode("A") == nil)
    }

    /// Signs altered authenticator data with the passkey's own key, so only the alteration is judged.
    func resign(_ data: [UInt8], _ clientData: [UInt8], _ passkey: DevicePasskey) throws -> [UInt8] {
        let file = try JSONEncoder().encode(passkey)
        let raw = try #require(
            (try JSONSerialization.jsonObject(with: file) as? [String: Any])?["privateKey"] as? [Int])
        let key = try P256.Signing.PrivateKey(rawRepresentation: raw.map { UInt8($0) })
        return [UInt8](try key.signature(for: data + Array(SHA256.hash(data: clientData))).derRepresentation)
    }
}
