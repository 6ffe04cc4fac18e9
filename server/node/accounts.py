"""Accounts of a node: sign-up, sign-in, sign-out and resuming an account's token (wire contract v1.2).

Owns: password hashing (argon2id through `argon2-cffi`, at most `HASHING` hashes at once in worker threads, so
memory stays bounded whatever the number of sign-ins), the limits on failed sign-ins (per name and per address,
counted in the records database, so every node sees them), and the decisions: which token resumes which player,
which name a guest may not use.
Must not: touch sockets or rooms (the hub answers, detaches and closes), or keep secrets anywhere but as hashes:
passwords as argon2id hashes, tokens as SHA-256 hashes (`token_key`). Neither is ever logged or put in a metric.

An account's tokens live in the records database (`Device` rows, one per sign-in) and, as a session, in the
live store. A token resumes an account only while its device row exists: signing out drops the row (and the
session), so a stolen token stops working on every node at once. When the records database cannot be reached, a
session the store still holds is trusted (play goes on; a sign-out needs the records database anyway).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

import webauthn
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, parse_authentication_credential_json
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidJSONStructure, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from server.config import Settings
from server.metrics import Metrics
from server.rooms.core import RoomError
from server.rooms.names import NameRefused, account_key, check_name
from server.store.base import Store, StoreUnavailable
from server.store.records import Account, Device, Passkey, Records

log = logging.getLogger("marcopolo.accounts")

#: password hashes computed at once (each takes `password_memory_kib` of memory for a few tens of ms)
HASHING = 2
#: what a device is called in the list of an account's sign-ins when the client says nothing
DEVICE = "device"
#: a device's id in that list: the start of its token's hash (it names the device, it resumes nothing)
DEVICE_ID_CHARS = 16
#: seconds a passkey ceremony (its challenge) may take from its options to its answer
CEREMONY_SECONDS = 300
RP_NAME = "Marco Polo"


class PasskeyError(Exception):
    """A passkey ceremony refused: `status` is the HTTP status, `code` a wire error code."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a connection is after `hello`, `sign_up` or `sign_in`."""

    player: str
    name: str
    account: bool
    token: str


class Accounts:
    def __init__(self, settings: Settings, records: Records, metrics: Metrics) -> None:
        self.settings = settings
        self.records = records
        self.metrics = metrics
        self.hasher = PasswordHasher(
            time_cost=settings.password_time_cost, memory_cost=settings.password_memory_kib, parallelism=1
        )
        self._hashing = asyncio.Semaphore(HASHING)
        #: a hash of a random password: an unknown name is checked against it, so it costs what a wrong
        #: password costs (`bad_credentials` does not tell the two apart by its timing)
        self._decoy: str | None = None

    # ---- hashing --------------------------------------------------------------------------------

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, hashed: str | None, password: str) -> bool:
        if hashed is None:
            if self._decoy is None:
                self._decoy = await self._hash(secrets.token_hex(16))
            hashed = self._decoy
        async with self._hashing:
            try:
                return await asyncio.to_thread(self.hasher.verify, hashed, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

    # ---- limits ---------------------------------------------------------------------------------

    def _limit_keys(self, key: str, addr: str) -> list[str]:
        return [f"n:{key}", f"a:{addr or '-'}"]

    async def _check_limits(self, keys: list[str], now: int) -> None:
        counts = await self.records.attempts(keys, now - self.settings.auth_window)
        if counts[keys[0]] >= self.settings.auth_fails_per_name or counts[keys[1]] >= self.settings.auth_fails_per_addr:
            self.metrics.auth_failures.labels("limited").inc()
            minutes = max(1, self.settings.auth_window // 60)
            raise RoomError("rate_limited", f"too many failed sign-ins; try again within {minutes} minutes")

    async def _failed(self, keys: list[str], now: int, why: str) -> None:
        self.metrics.auth_failures.labels(why).inc()
        try:
            await self.records.note_attempt(keys, now, self.settings.auth_window)
        except StoreUnavailable:
            log.warning("accounts: a failed sign-in could not be counted (records database unavailable)")

    # ---- the requests ---------------------------------------------------------------------------

    def _check_password(self, password: str) -> None:
        if len(password) < self.settings.password_min:
            raise RoomError("bad_message", f"password: at least {self.settings.password_min} characters")

    async def _device(self, player: str, now: int, label: str | None) -> str:
        token = secrets.token_hex(16)
        await self.records.add_device(Device(token_key(token), player, label or DEVICE, now, now))
        return token

    async def sign_up(
        self, name: str, password: str, addr: str, guest: str | None, device: str | None = None
    ) -> Identity:
        """A new account named `name` (the guest `guest`'s player id, if given: it keeps its games)."""
        try:
            check_name(name, self.settings.name_max)
        except NameRefused as err:
            raise RoomError("bad_message", f"name: {err}") from None
        self._check_password(password)
        now = int(time.time())
        per_addr = [f"s:{addr or '-'}"]
        made = await self.records.attempts(per_addr, now - self.settings.auth_window)
        if made[per_addr[0]] >= self.settings.signups_per_addr:
            self.metrics.auth_failures.labels("signup_limited").inc()
            raise RoomError("rate_limited", "too many accounts made from this address; try again later")
        player = guest or "p" + secrets.token_hex(8)
        account = Account(player, name, account_key(name), await self._hash(password), now)
        if not await self.records.create_account(account):
            raise RoomError("name_taken", "an account holds that name (or one that reads the same); choose another")
        await self.records.note_attempt(per_addr, now, self.settings.auth_window)
        self.metrics.accounts.labels("sign_up").inc()
        return Identity(player, name, True, await self._device(player, now, device))

    async def sign_in(self, name: str, password: str, addr: str, device: str | None = None) -> Identity:
        now = int(time.time())
        key = account_key(name)
        keys = self._limit_keys(key, addr)
        await self._check_limits(keys, now)
        account = await self.records.account_by_key(key)
        good = await self._verify(account.password if account is not None else None, password)
        if account is None or not good:
            await self._failed(keys, now, "unknown_name" if account is None else "wrong_password")
            raise RoomError("bad_credentials", "no account has that name and password")
        self.metrics.accounts.labels("sign_in").inc()
        return Identity(account.player, account.name, True, await self._device(account.player, now, device))

    async def sign_out(self, player: str, key: str | None, everywhere: bool) -> list[str]:
        """Drop this token (or every token of the account); the keys of the sessions to forget."""
        dropped = await self.records.drop_devices(player, None if everywhere else ([key] if key else []))
        self.metrics.accounts.labels("sign_out_everywhere" if everywhere else "sign_out").inc()
        return sorted(set(dropped) | ({key} if key else set()))

    async def sign_out_device(self, player: str, device_id: str) -> list[str]:
        """Drop the account's device with that id (from `devices`); the keys dropped (none: no such device)."""
        keys = [d.key for d in await self.records.devices(player) if d.key[:DEVICE_ID_CHARS] == device_id]
        dropped = await self.records.drop_devices(player, keys) if keys else []
        if dropped:
            self.metrics.accounts.labels("sign_out").inc()
        return dropped

    async def devices(self, player: str, current: str | None) -> list[dict[str, Any]]:
        return [
            {"id": d.key[:DEVICE_ID_CHARS], "device": d.device, "created": d.created_at, "current": d.key == current}
            for d in await self.records.devices(player)
        ]

    async def _confirm(self, player: str, password: str, addr: str) -> Account:
        """The account, if `password` is its password (a wrong one counts as a failed sign-in)."""
        account = await self.records.account(player)
        if account is None:
            raise RoomError("forbidden", "this connection is not signed in to an account")
        now = int(time.time())
        keys = self._limit_keys(account.key, addr)
        await self._check_limits(keys, now)
        if not await self._verify(account.password, password):
            await self._failed(keys, now, "wrong_password")
            raise RoomError("bad_credentials", "that is not the account's password")
        return account

    async def change_password(self, player: str, password: str, new: str, addr: str, current: str | None) -> list[str]:
        """Set a new password; every other device is signed out. The keys of the sessions to forget."""
        await self._confirm(player, password, addr)
        self._check_password(new)
        await self.records.set_password(player, await self._hash(new))
        others = [d.key for d in await self.records.devices(player) if d.key != current]
        self.metrics.accounts.labels("change_password").inc()
        return await self.records.drop_devices(player, others) if others else []

    async def delete(self, player: str, password: str, addr: str) -> list[str]:
        """Delete the account; the keys of the sessions to forget."""
        await self._confirm(player, password, addr)
        now = int(time.time())
        dropped = await self.records.delete_account(player, now, now + self.settings.name_free_days * 86400)
        self.metrics.accounts.labels("delete").inc()
        return dropped

    async def resume(self, key: str, session: dict[str, Any] | None) -> dict[str, Any] | None:
        """The session a token resumes: the store's, checked against the records for an account's; an account's
        device row alone when the store forgot the session (it outlives the store's `session_ttl`)."""
        if session is not None and not session.get("account"):
            return session  # a guest's
        try:
            device = await self.records.device(key)
            if device is None:
                return None  # signed out (everywhere, or from this device), or the account is deleted
            account = await self.records.account(device.player)
        except StoreUnavailable:
            return session  # the records database is down: trust what the store still holds
        if account is None:
            return None
        return {"player": account.player, "name": account.name, "account": True}

    # ---- passkeys (HTTP routes of `server.net.app`) --------------------------------------------------

    async def _ceremony(self, store: Store, kind: str, challenge: bytes, player: str | None) -> str:
        ceremony = secrets.token_urlsafe(16)
        data = {"kind": kind, "challenge": bytes_to_base64url(challenge), "player": player}
        await store.save_session(token_key("passkey:" + ceremony), data, CEREMONY_SECONDS)
        return ceremony

    async def _take_ceremony(self, store: Store, ceremony: str, kind: str) -> dict[str, Any]:
        key = token_key("passkey:" + ceremony)
        data = await store.load_session(key)
        if data is None or data.get("kind") != kind:
            raise PasskeyError(400, "bad_credentials", "no such ceremony, or it expired; start again")
        await store.delete_sessions([key])  # once
        return data

    async def _account_of_token(self, store: Store, token: str | None) -> Account:
        key = token_key(token) if token else ""
        session = await self.resume(key, await store.load_session(key)) if token else None
        if session is None or not session.get("account"):
            raise PasskeyError(401, "forbidden", "sign in to an account first")
        account = await self.records.account(str(session["player"]))
        if account is None:
            raise PasskeyError(401, "forbidden", "sign in to an account first")
        return account

    async def passkey_register_options(self, store: Store, token: str | None, rp_id: str) -> dict[str, Any]:
        account = await self._account_of_token(store, token)
        mine = await self.records.passkeys(account.player)
        known = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.id)) for p in mine]
        options = webauthn.generate_registration_options(
            rp_id=rp_id, rp_name=RP_NAME, user_id=account.player.encode(), user_name=account.name,
            user_display_name=account.name, exclude_credentials=known,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED
            ),
        )  # fmt: skip
        ceremony = await self._ceremony(store, "register", options.challenge, account.player)
        return {"ceremony": ceremony, "options": json.loads(webauthn.options_to_json(options))}

    async def passkey_register(
        self, store: Store, token: str | None, ceremony: str, credential: str, rp_id: str, origins: list[str]
    ) -> dict[str, Any]:
        account = await self._account_of_token(store, token)
        data = await self._take_ceremony(store, ceremony, "register")
        if data.get("player") != account.player:
            raise PasskeyError(400, "bad_credentials", "that ceremony is another account's")
        try:
            done = webauthn.verify_registration_response(
                credential=credential, expected_challenge=base64url_to_bytes(data["challenge"]),
                expected_rp_id=rp_id, expected_origin=origins,
            )  # fmt: skip
        except (InvalidRegistrationResponse, InvalidJSONStructure, ValueError, KeyError) as err:
            self.metrics.auth_failures.labels("passkey_register").inc()
            raise PasskeyError(400, "bad_credentials", f"the passkey was not accepted: {err}") from None
        cred = bytes_to_base64url(done.credential_id)
        now = int(time.time())
        passkey = Passkey(cred, account.player, done.credential_public_key, done.sign_count, now)
        if not await self.records.add_passkey(passkey):
            raise PasskeyError(400, "bad_credentials", "that passkey is registered already")
        self.metrics.accounts.labels("passkey_register").inc()
        return {"ok": True, "id": cred}

    async def passkey_login_options(self, store: Store, rp_id: str) -> dict[str, Any]:
        options = webauthn.generate_authentication_options(
            rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED
        )
        ceremony = await self._ceremony(store, "login", options.challenge, None)
        return {"ceremony": ceremony, "options": json.loads(webauthn.options_to_json(options))}

    async def passkey_login(
        self, store: Store, ceremony: str, credential: str, rp_id: str, origins: list[str], addr: str,
        device: str | None,
    ) -> Identity:
        now = int(time.time())
        keys = [f"a:{addr or '-'}"]
        counts = await self.records.attempts(keys, now - self.settings.auth_window)
        if counts[keys[0]] >= self.settings.auth_fails_per_addr:
            self.metrics.auth_failures.labels("limited").inc()
            raise PasskeyError(429, "rate_limited", "too many failed sign-ins from this address; try again later")
        data = await self._take_ceremony(store, ceremony, "login")
        try:
            parsed = parse_authentication_credential_json(credential)
            found = await self.records.passkey(bytes_to_base64url(parsed.raw_id))
            if found is None:
                raise InvalidAuthenticationResponse("unknown passkey")
            done = webauthn.verify_authentication_response(
                credential=parsed, expected_challenge=base64url_to_bytes(data["challenge"]), expected_rp_id=rp_id,
                expected_origin=origins, credential_public_key=found.public_key,
                credential_current_sign_count=found.sign_count,
            )  # fmt: skip
        except (InvalidAuthenticationResponse, InvalidJSONStructure, ValueError, KeyError) as err:
            await self._failed(keys, now, "passkey")
            raise PasskeyError(400, "bad_credentials", f"the passkey was not accepted: {err}") from None
        await self.records.set_sign_count(found.id, done.new_sign_count)
        account = await self.records.account(found.player)
        if account is None:
            raise PasskeyError(400, "bad_credentials", "the passkey was not accepted")
        self.metrics.accounts.labels("passkey_sign_in").inc()
        return Identity(account.player, account.name, True, await self._device(account.player, now, device))

    async def name_held(self, name: str) -> bool:
        """Does an account hold this name (a guest may not use it)? False when the records cannot tell."""
        try:
            return await self.records.account_by_key(account_key(name)) is not None
        except StoreUnavailable:
            return False


def token_key(token: str) -> str:
    """Sessions and devices are stored under a hash of the token, never the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()
