#!/usr/bin/env python3
"""Drives a live reference backend's passkey ceremonies with a software authenticator built on Yubico's
python-fido2 (issue 53 item 4): the attestation and the assertions are made with fido2's classes and
`cryptography`, never with AccessDeck's code, so the backend is not checked only against itself.

  passkey-live.py BASE_URL CHALLENGE_LIFETIME_SECONDS

Signs in as the scenario's user through the admin API (POST /_admin/session), registers a passkey (packed
self attestation), signs in with it, verifies it's you with it, registers and signs in with a second passkey
whose key is Ed25519 (EdDSA, attestation "none"), then answers one spoiled ceremony per check
a relying party makes, each with a fresh challenge, and prints one JSON object: for each case, the status
and the error code the backend answered. The caller judges them (PasskeyFido2Tests).
"""
import json
import sys
import urllib.error
import urllib.request

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from fido2.cose import ES256, EdDSA
from fido2.utils import sha256, websafe_decode, websafe_encode
from fido2.webauthn import (
    AttestationObject,
    AttestedCredentialData,
    AuthenticatorData,
    CollectedClientData,
)

FLAGS = AuthenticatorData.FLAG
GOOD = FLAGS.UP | FLAGS.UV
DEVICE = {"device_name": "python-fido2", "system_name": "Linux", "system_version": "1",
          "identifier": "fido2-live", "public_key": "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc="}


class Backend:
    def __init__(self, base):
        self.base = base.rstrip("/")

    def call(self, method, path, body=None, token=None, reauth=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", "Bearer " + token)
        if reauth:
            request.add_header("X-Reauth-Token", reauth)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                text = answer.read()
                return answer.status, json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            text = error.read()
            return error.code, json.loads(text) if text else None


def b64(data):
    return websafe_encode(bytes(data))


def outcome(answer):
    status, body = answer
    code = (body or {}).get("error", {}).get("code") if isinstance(body, dict) else None
    return [status, code]


def main(base, lifetime):
    backend = Backend(base)
    status, tokens = backend.call("POST", "/_admin/session")
    assert status == 200, (status, tokens)
    token = tokens["access_token"]
    key = ec.generate_private_key(ec.SECP256R1())
    cose_key = ES256.from_cryptography_key(key.public_key())
    credential_id = b"fido2-live-credential"
    results = {}

    def registration(options, origin=None, extra=b""):
        origin = origin or "https://" + options["rp_id"]
        client_data = CollectedClientData.create("webauthn.create", websafe_decode(options["challenge"]), origin)
        credential = AttestedCredentialData.create(bytes(16), credential_id, cose_key)
        auth_data = AuthenticatorData.create(sha256(options["rp_id"].encode()), GOOD | FLAGS.AT, 0, credential)
        signature = key.sign(bytes(auth_data) + client_data.hash, ec.ECDSA(hashes.SHA256()))
        obj = AttestationObject.create("packed", auth_data, {"alg": ES256.ALGORITHM, "sig": signature})
        return {"challenge_id": options["challenge_id"], "client_data_json": b64(client_data),
                "attestation_object": b64(bytes(obj) + extra), "name": "python-fido2"}

    counter = [0]

    def assertion(options, origin=None, rp_id=None, flags=GOOD, count=None, tamper=False):
        if count is None:
            counter[0] += 1
            count = counter[0]
        origin = origin or "https://" + options["rp_id"]
        client_data = CollectedClientData.create("webauthn.get", websafe_decode(options["challenge"]), origin)
        auth_data = AuthenticatorData.create(sha256((rp_id or options["rp_id"]).encode()), flags, count)
        signature = key.sign(bytes(auth_data) + client_data.hash, ec.ECDSA(hashes.SHA256()))
        if tamper:
            signature = signature[:-1] + bytes([signature[-1] ^ 1])
        return {"challenge_id": options["challenge_id"], "credential_id": b64(credential_id),
                "client_data_json": b64(client_data), "authenticator_data": b64(auth_data),
                "signature": b64(signature), "device": DEVICE}

    def register_options():
        status, options = backend.call("POST", "/me/passkeys/registration/options", {}, token=token)
        assert status == 200, (status, options)
        return options

    def sign_in_options():
        status, options = backend.call("POST", "/auth/passkey/options", {})
        assert status == 200, (status, options)
        return options

    def sign_in(body):
        return backend.call("POST", "/auth/passkey/verify", body)

    results["register-wrong-origin"] = outcome(backend.call(
        "POST", "/me/passkeys", registration(register_options(), origin="https://evil.test"), token=token))
    results["register-trailing-cbor"] = outcome(backend.call(
        "POST", "/me/passkeys", registration(register_options(), extra=b"\x00"), token=token))
    results["register"] = outcome(backend.call("POST", "/me/passkeys", registration(register_options()), token=token))

    options = sign_in_options()
    answer = sign_in(assertion(options))
    results["sign-in"] = outcome(answer)
    session = (answer[1] or {}).get("session", {}).get("access_token")
    results["session-works"] = outcome(backend.call("GET", "/auth/me", token=session))
    results["replayed-challenge"] = outcome(sign_in(assertion(options)))

    status, reauth_options = backend.call("POST", "/auth/reauth/passkey/options", {}, token=token)
    body = assertion(reauth_options)
    del body["device"]
    results["reauth"] = outcome(backend.call("POST", "/auth/reauth/passkey", body, token=token))

    # An authenticator that offers EdDSA: an Ed25519 key, attestation "none", then a sign-in with it.
    ed_key = ed25519.Ed25519PrivateKey.generate()
    ed_id = b"fido2-live-eddsa"
    options = register_options()
    client_data = CollectedClientData.create("webauthn.create", websafe_decode(options["challenge"]),
                                             "https://" + options["rp_id"])
    credential = AttestedCredentialData.create(bytes(16), ed_id, EdDSA.from_cryptography_key(ed_key.public_key()))
    auth_data = AuthenticatorData.create(sha256(options["rp_id"].encode()), GOOD | FLAGS.AT, 0, credential)
    ed_registration = {"challenge_id": options["challenge_id"], "client_data_json": b64(client_data),
                       "attestation_object": b64(AttestationObject.create("none", auth_data, {})),
                       "name": "python-fido2 EdDSA"}
    results["register-eddsa"] = outcome(backend.call("POST", "/me/passkeys", ed_registration, token=token))
    options = sign_in_options()
    client_data = CollectedClientData.create("webauthn.get", websafe_decode(options["challenge"]),
                                             "https://" + options["rp_id"])
    auth_data = AuthenticatorData.create(sha256(options["rp_id"].encode()), GOOD, 1)
    results["sign-in-eddsa"] = outcome(sign_in({
        "challenge_id": options["challenge_id"], "credential_id": b64(ed_id), "client_data_json": b64(client_data),
        "authenticator_data": b64(auth_data), "signature": b64(ed_key.sign(bytes(auth_data) + client_data.hash)),
        "device": DEVICE}))
    options = sign_in_options()
    client_data = CollectedClientData.create("webauthn.get", websafe_decode(options["challenge"]),
                                             "https://" + options["rp_id"])
    auth_data = AuthenticatorData.create(sha256(options["rp_id"].encode()), GOOD, 2)
    spoiled = ed_key.sign(bytes(auth_data) + client_data.hash)
    results["sign-in-eddsa-bad-signature"] = outcome(sign_in({
        "challenge_id": options["challenge_id"], "credential_id": b64(ed_id), "client_data_json": b64(client_data),
        "authenticator_data": b64(auth_data), "signature": b64(spoiled[:-1] + bytes([spoiled[-1] ^ 1])),
        "device": DEVICE}))

    results["wrong-origin"] = outcome(sign_in(assertion(sign_in_options(), origin="https://evil.test")))
    results["wrong-rp"] = outcome(sign_in(assertion(sign_in_options(), rp_id="evil.test")))
    results["bad-signature"] = outcome(sign_in(assertion(sign_in_options(), tamper=True)))
    results["user-not-present"] = outcome(sign_in(assertion(sign_in_options(), flags=FLAGS.UV)))

    # Both sides of the challenge's lifetime, on the backend's clock.
    early, late = sign_in_options(), sign_in_options()
    backend.call("POST", "/_admin/clock/advance", {"seconds": lifetime - 1})
    results["challenge-before-its-lifetime"] = outcome(sign_in(assertion(early)))
    backend.call("POST", "/_admin/clock/advance", {"seconds": 1})
    results["challenge-at-its-lifetime"] = outcome(sign_in(assertion(late)))

    # Last: a counter below the last one seen flags the passkey, and the next honest answer is refused too.
    results["counter-went-back"] = outcome(sign_in(assertion(sign_in_options(), count=1)))
    results["after-the-clone"] = outcome(sign_in(assertion(sign_in_options())))
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))
