"""A software WebAuthn authenticator for tests: a P-256 key per credential, `none` attestation, and assertions
signed the way a platform authenticator signs them (what the server's `webauthn` library verifies)."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftAuthenticator:
    def __init__(self) -> None:
        #: credential id -> (private key, user handle, signature counter)
        self.keys: dict[bytes, tuple[ec.EllipticCurvePrivateKey, bytes, int]] = {}

    def create(self, options: dict[str, Any], origin: str) -> dict[str, Any]:
        """The browser's answer to `navigator.credentials.create` with these (JSON) options."""
        rp_id = options["rp"]["id"]
        key = ec.generate_private_key(ec.SECP256R1())
        cred = secrets.token_bytes(32)
        user = unb64url(options["user"]["id"])
        self.keys[cred] = (key, user, 0)
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        auth = hashlib.sha256(rp_id.encode()).digest() + bytes([0x45]) + struct.pack(">I", 0)
        auth += bytes(16) + struct.pack(">H", len(cred)) + cred + cose
        client = json.dumps({"type": "webauthn.create", "challenge": options["challenge"], "origin": origin}).encode()
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth})
        return {
            "id": b64url(cred), "rawId": b64url(cred), "type": "public-key", "clientExtensionResults": {},
            "response": {"clientDataJSON": b64url(client), "attestationObject": b64url(attestation)},
        }  # fmt: skip

    def get(self, options: dict[str, Any], origin: str, cred: bytes | None = None) -> dict[str, Any]:
        """The browser's answer to `navigator.credentials.get` (a discoverable credential: the first one)."""
        cred = cred or next(iter(self.keys))
        key, user, count = self.keys[cred]
        count += 1
        self.keys[cred] = (key, user, count)
        auth = hashlib.sha256(options["rpId"].encode()).digest() + bytes([0x05]) + struct.pack(">I", count)
        client = json.dumps({"type": "webauthn.get", "challenge": options["challenge"], "origin": origin}).encode()
        signature = key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64url(cred), "rawId": b64url(cred), "type": "public-key", "clientExtensionResults": {},
            "response": {"clientDataJSON": b64url(client), "authenticatorData": b64url(auth),
                         "signature": b64url(signature), "userHandle": b64url(user)},
        }  # fmt: skip
