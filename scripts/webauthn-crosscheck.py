#!/usr/bin/env python3
"""Checks AccessDeck's WebAuthn code against Yubico's python-fido2 (issue 53 item 4), both ways.

  verify FILE  reads a registration and a sign-in our software authenticator made (JSON, base64url
               fields) and runs them through python-fido2's Fido2Server; prints what it said of each.
               Instead of a registration, a "credential" (its id and COSE public key) stands for a
               passkey this authenticator was handed whole (a scenario's passkey on this device).
  make FILE    writes ceremonies made with python-fido2 and `cryptography` alone: one good registration
               and sign-in, and one bad case per check a relying party makes, each signed properly so
               only its one fault is judged.

Neither side is checked only against itself: what we sign, their server verifies; what they make, our
relying party judges.
"""
import json
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fido2.attestation import NoneAttestation, PackedAttestation
from fido2 import cbor
from fido2.cose import ES256, CoseKey
from fido2.server import Fido2Server
from fido2.utils import sha256, websafe_decode, websafe_encode
from fido2.webauthn import (
    AttestationObject,
    AttestedCredentialData,
    AuthenticatorData,
    CollectedClientData,
    PublicKeyCredentialRpEntity,
)

RP_ID = "accessdeck.test"
ORIGIN = "https://accessdeck.test"
FLAGS = AuthenticatorData.FLAG


def server():
    return Fido2Server(PublicKeyCredentialRpEntity(name="AccessDeck", id=RP_ID), verify_origin=lambda o: o == ORIGIN)


def verify(path):
    given = json.load(open(path))
    state = {"challenge": given["challenge"], "user_verification": "required"}
    result = {}
    if "credential" in given:
        known = given["credential"]
        credential = AttestedCredentialData.create(
            bytes(16), websafe_decode(known["id"]), CoseKey.parse(cbor.decode(websafe_decode(known["public_key"]))))
        return assert_with(state, credential, given["assertion"], result)
    registration = given["registration"]
    try:
        data = server().register_complete(state, {
            "id": registration["id"], "rawId": registration["id"], "type": "public-key",
            "response": {"clientDataJSON": registration["clientDataJSON"],
                         "attestationObject": registration["attestationObject"]}})
        credential = data.credential_data
        # The server takes the statement on trust unless asked; the attestation classes check it.
        obj = AttestationObject(websafe_decode(registration["attestationObject"]))
        client_data_hash = sha256(websafe_decode(registration["clientDataJSON"]))
        {"none": NoneAttestation(), "packed": PackedAttestation()}[obj.fmt].verify(obj.att_stmt, obj.auth_data,
                                                                               client_data_hash)
        result["registration"] = "ok"
    except Exception as error:  # what python-fido2 refused, said as it said it
        print(json.dumps({"registration": f"refused: {error!r}"}))
        return
    assert_with(state, credential, given["assertion"], result)


def assert_with(state, credential, assertion, result):
    try:
        server().authenticate_complete(state, [credential], {
            "id": assertion["id"], "rawId": assertion["id"], "type": "public-key",
            "response": {"clientDataJSON": assertion["clientDataJSON"],
                         "authenticatorData": assertion["authenticatorData"],
                         "signature": assertion["signature"], "userHandle": assertion["userHandle"]}})
        result["assertion"] = "ok"
    except Exception as error:
        result["assertion"] = f"refused: {error!r}"
    print(json.dumps(result))


def b64(data):
    return websafe_encode(bytes(data))


def make(path):
    key = ec.generate_private_key(ec.SECP256R1())
    cose_key = ES256.from_cryptography_key(key.public_key())
    credential_id = bytes(range(16))
    aaguid = bytes(16)
    challenge = bytes(range(32))
    good_flags = FLAGS.UP | FLAGS.UV

    def registration(fmt="none", rp_id=RP_ID, flags=good_flags | FLAGS.AT, origin=ORIGIN, kind="webauthn.create",
                     sign_with=key, extra=b""):
        client_data = CollectedClientData.create(kind, challenge, origin)
        credential = AttestedCredentialData.create(aaguid, credential_id, cose_key)
        auth_data = AuthenticatorData.create(sha256(rp_id.encode()), flags, 0, credential)
        statement = {}
        if fmt == "packed":
            signature = sign_with.sign(bytes(auth_data) + client_data.hash, ec.ECDSA(hashes.SHA256()))
            statement = {"alg": ES256.ALGORITHM, "sig": signature}
        obj = AttestationObject.create(fmt, auth_data, statement)
        return {"clientDataJSON": b64(client_data), "attestationObject": b64(bytes(obj) + extra)}

    def assertion(counter=1, flags=good_flags, rp_id=RP_ID, origin=ORIGIN, kind="webauthn.get", sign_with=key,
                  the_challenge=challenge, tamper=False):
        client_data = CollectedClientData.create(kind, the_challenge, origin)
        auth_data = AuthenticatorData.create(sha256(rp_id.encode()), flags, counter)
        signature = sign_with.sign(bytes(auth_data) + client_data.hash, ec.ECDSA(hashes.SHA256()))
        if tamper:
            signature = signature[:-1] + bytes([signature[-1] ^ 1])
        return {"clientDataJSON": b64(client_data), "authenticatorData": b64(auth_data), "signature": b64(signature)}

    stranger = ec.generate_private_key(ec.SECP256R1())
    out = {
        "challenge": b64(challenge),
        "credentialId": b64(credential_id),
        "registrations": {
            "good-none": registration(),
            "good-packed": registration("packed"),
            "wrong-origin": registration(origin="https://evil.test"),
            "wrong-rp": registration(rp_id="evil.test"),
            "wrong-type": registration(kind="webauthn.get"),
            "user-not-present": registration(flags=FLAGS.UV | FLAGS.AT),
            "packed-bad-signature": registration("packed", sign_with=stranger),
            "trailing-cbor": registration(extra=b"\x00"),
        },
        "assertions": {
            "good": assertion(),
            "bad-signature": assertion(tamper=True),
            "other-key": assertion(sign_with=stranger),
            "wrong-origin": assertion(origin="https://evil.test"),
            "wrong-rp": assertion(rp_id="evil.test"),
            "wrong-type": assertion(kind="webauthn.create"),
            "user-not-present": assertion(flags=FLAGS.UV),
            "other-challenge": assertion(the_challenge=bytes(32)),
            "counter-not-grown": assertion(counter=0),
        },
    }
    json.dump(out, open(path, "w"))


if __name__ == "__main__":
    {"verify": verify, "make": make}[sys.argv[1]](sys.argv[2])
