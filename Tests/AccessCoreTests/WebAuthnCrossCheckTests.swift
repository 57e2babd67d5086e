import ChildProcess
import Crypto
import Foundation
import Testing

@testable import AccessCore

/// Issue 53 item 4: our WebAuthn code against an independent implementation, Yubico's python-fido2
/// (`make test` installs it into .venv): what our software authenticator signs, their server verifies;
/// what they make, our relying party judges, each bad case refused with its own code.
@Suite struct WebAuthnCrossCheckTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let party = RelyingParty(id: "accessdeck.test", origins: ["https://accessdeck.test"])
    let challenge: [UInt8] = Array(0..<32)

    @Test(arguments: [SoftwareAuthenticator.Attestation.none, .packedSelf])
    func pythonFido2VerifiesWhatOurAuthenticatorSigns(attestation: SoftwareAuthenticator.Attestation) throws {
        let made = SoftwareAuthenticator.create(
            rpID: party.id, origin: "https://accessdeck.test", challenge: challenge, userHandle: Array("u-1".utf8),
            userName: "ana", attestation: attestation)
        var passkey = made.passkey
        let answer = SoftwareAuthenticator.answer(&passkey, origin: "https://accessdeck.test", challenge: challenge)
        #expect(try verdict(made, answer) == ["registration": "ok", "assertion": "ok"])
        // The check is not vacuous: one flipped bit of our signature and python-fido2 refuses it.
        var tampered = answer
        tampered.signature[tampered.signature.count - 1] ^= 1
        #expect(try verdict(made, tampered)["assertion"]?.hasPrefix("refused") == true)
    }

    /// What the app's authenticator signs with (issue 53 item 4): a passkey read back from its key file (the store
    /// writes `DevicePasskey`'s encoding) and one handed to it whole as a raw P-256 key (a scenario's passkey on this
    /// device, `GET /_admin/device/passkeys`). python-fido2 verifies each knowing only the credential's public key,
    /// taken here from swift-crypto's own key, not from what `DevicePasskey` derives.
    @Test func pythonFido2VerifiesWhatTheAppsAuthenticatorSignsWithAKeptOrAHandedPasskey() throws {
        let origin = "https://accessdeck.test"
        let made = SoftwareAuthenticator.create(
            rpID: party.id, origin: origin, challenge: challenge, userHandle: Array("u-1".utf8), userName: "ana")
        let kept = try JSONDecoder().decode(DevicePasskey.self, from: JSONEncoder().encode(made.passkey))
        let key = P256.Signing.PrivateKey()
        let handed = try DevicePasskey(
            credentialID: Array(repeating: 9, count: 16), rpID: party.id, userHandle: Array("usr_passkey".utf8),
            userName: "jdoe@mail.com", signCount: 4, privateKey: Array(key.rawRepresentation))
        let authenticatorData = try #require(
            try CBORDecoder.decode(made.attestationObject)[key: "authData"]?.bytesValue)
        let registeredKey = try #require(try AuthenticatorData(bytes: authenticatorData).attestedCredential?.publicKey)
        for (var passkey, publicKey) in [(kept, registeredKey), (handed, COSEKey.es256(key.publicKey))] {
            var answer = SoftwareAuthenticator.answer(&passkey, origin: origin, challenge: challenge)
            #expect(try verdict(known: passkey.credentialID, publicKey, answer) == ["assertion": "ok"])
            answer.signature[answer.signature.count - 1] ^= 1
            #expect(
                try verdict(known: passkey.credentialID, publicKey, answer)["assertion"]?.hasPrefix("refused") == true)
        }
        #expect(throws: WebAuthnError.self) {
            try DevicePasskey(
                credentialID: [1], rpID: party.id, userHandle: [1], userName: "x", signCount: 0, privateKey: [1, 2, 3])
        }
    }

    /// Their attestation check is not taken on trust either: our packed statement with another key's
    /// signature is refused by python-fido2's PackedAttestation.
    @Test func pythonFido2RefusesAPackedStatementSignedByAnotherKey() throws {
        func create() -> SoftwareAuthenticator.Created {
            SoftwareAuthenticator.create(
                rpID: party.id, origin: "https://accessdeck.test", challenge: challenge,
                userHandle: Array("u-1".utf8), userName: "ana", attestation: .packedSelf)
        }
        var made = create()
        let other = try CBORDecoder.decode(create().attestationObject)
        let object = try CBORDecoder.decode(made.attestationObject)
        made.attestationObject =
            CBOR.map(
                try #require(object.mapValue).map {
                    $0.key == .text("attStmt") ? .init($0.key, other[key: "attStmt"]!) : $0
                }
            ).encoded
        var passkey = made.passkey
        let answer = SoftwareAuthenticator.answer(&passkey, origin: "https://accessdeck.test", challenge: challenge)
        #expect(try verdict(made, answer)["registration"]?.hasPrefix("refused") == true)
    }

    @Test func ourRelyingPartyJudgesWhatPythonFido2Makes() throws {
        let made = try python(["make"], reading: true)
        let registrations = try #require(made["registrations"] as? [String: [String: String]])
        let expectedRegistrations: [String: String?] = [
            "good-none": nil, "good-packed": nil, "wrong-origin": "passkey_wrong_origin",
            "wrong-rp": "passkey_wrong_rp",
            "wrong-type": "passkey_wrong_type", "user-not-present": "passkey_user_not_present",
            "packed-bad-signature": "passkey_bad_attestation", "trailing-cbor": "passkey_malformed",
        ]
        #expect(Set(registrations.keys) == Set(expectedRegistrations.keys))
        var publicKey: COSEKey?
        for (name, expected) in expectedRegistrations {
            let given = try #require(registrations[name])
            do {
                let registration = try party.verifyRegistration(
                    clientDataJSON: try decoded(given["clientDataJSON"]),
                    attestationObject: try decoded(given["attestationObject"]), challenge: challenge)
                #expect(expected == nil, "\(name) was accepted")
                publicKey = registration.publicKey
            } catch {
                #expect((error as? WebAuthnError)?.code == expected, "\(name): \(error)")
            }
        }
        let key = try #require(publicKey)
        let assertions = try #require(made["assertions"] as? [String: [String: String]])
        // The counter case comes from an authenticator whose counter read 1 before and 0 now.
        let expectedAssertions: [String: (stored: UInt32, code: String?)] = [
            "good": (0, nil), "bad-signature": (0, "passkey_bad_signature"), "other-key": (0, "passkey_bad_signature"),
            "wrong-origin": (0, "passkey_wrong_origin"), "wrong-rp": (0, "passkey_wrong_rp"),
            "wrong-type": (0, "passkey_wrong_type"), "user-not-present": (0, "passkey_user_not_present"),
            "other-challenge": (0, "passkey_challenge_mismatch"), "counter-not-grown": (1, "passkey_counter_went_back"),
        ]
        #expect(Set(assertions.keys) == Set(expectedAssertions.keys))
        for (name, expected) in expectedAssertions {
            let given = try #require(assertions[name])
            do {
                _ = try party.verifyAssertion(
                    clientDataJSON: try decoded(given["clientDataJSON"]),
                    authenticatorData: try decoded(given["authenticatorData"]),
                    signature: try decoded(given["signature"]),
                    challenge: challenge, publicKey: key, storedSignCount: expected.stored)
                #expect(expected.code == nil, "\(name) was accepted")
            } catch {
                #expect((error as? WebAuthnError)?.code == expected.code, "\(name): \(error)")
            }
        }
    }

    private func verdict(
        _ made: SoftwareAuthenticator.Created, _ answer: SoftwareAuthenticator.Answer
    ) throws
        -> [String: String]
    {
        let id = Base64URL.encode(made.passkey.credentialID)
        let given: [String: Any] = [
            "challenge": Base64URL.encode(challenge),
            "registration": [
                "id": id, "clientDataJSON": Base64URL.encode(made.clientDataJSON),
                "attestationObject": Base64URL.encode(made.attestationObject),
            ],
            "assertion": [
                "id": id, "clientDataJSON": Base64URL.encode(answer.clientDataJSON),
                "authenticatorData": Base64URL.encode(answer.authenticatorData),
                "signature": Base64URL.encode(answer.signature), "userHandle": Base64URL.encode(answer.userHandle),
            ],
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webauthn-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONSerialization.data(withJSONObject: given).write(to: file)
        return try python(["verify", file.path], reading: false) as? [String: String] ?? [:]
    }

    /// python-fido2's verdict on `answer` from a credential it knows only by its id and public key.
    private func verdict(
        known credentialID: [UInt8], _ publicKey: COSEKey, _ answer: SoftwareAuthenticator.Answer
    ) throws -> [String: String] {
        let id = Base64URL.encode(credentialID)
        let given: [String: Any] = [
            "challenge": Base64URL.encode(challenge),
            "credential": ["id": id, "public_key": Base64URL.encode(publicKey.cbor.encoded)],
            "assertion": [
                "id": id, "clientDataJSON": Base64URL.encode(answer.clientDataJSON),
                "authenticatorData": Base64URL.encode(answer.authenticatorData),
                "signature": Base64URL.encode(answer.signature), "userHandle": Base64URL.encode(answer.userHandle),
            ],
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webauthn-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONSerialization.data(withJSONObject: given).write(to: file)
        return try python(["verify", file.path], reading: false) as? [String: String] ?? [:]
    }

    /// Runs scripts/webauthn-crosscheck.py with .venv's python; `make` writes a file, `verify` prints.
    private func python(_ arguments: [String], reading file: Bool) throws -> [String: Any] {
        let interpreter = Self.repository.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: interpreter) else {
            Issue.record("no \(interpreter): run `make test-pypi` (make test does) to install python-fido2")
            return [:]
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fido2-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let script = Self.repository.appendingPathComponent("scripts/webauthn-crosscheck.py").path
        // The child's argv[0] is "python": found on PATH, it is the venv's, and the venv's packages load.
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] =
            Self.repository.appendingPathComponent(".venv/bin").path + ":" + (environment["PATH"] ?? "")
        let outcome = try ChildProcess.run(
            interpreter, [script] + arguments + (file ? [output.path] : []), environment: environment)
        guard outcome.status == 0 else {
            Issue.record("python-fido2 failed: \(String(decoding: outcome.errors, as: UTF8.self))")
            return [:]
        }
        let json = file ? try Data(contentsOf: output) : outcome.output
        return try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
    }

    private func decoded(_ text: String?) throws -> [UInt8] {
        try #require(text.flatMap(Base64URL.decode))
    }
}
