"""Settings read from the environment: comma-separated lists (proxies, passkey origins, denied chat words) are
split, not parsed as JSON (a deployment sets them as MARCOPOLO_TRUSTED_PROXIES=10.0.0.1,10.0.0.2)."""

from __future__ import annotations

import pytest

from server.config import Settings


@pytest.mark.parametrize(
    ("env", "field"),
    [("MARCOPOLO_TRUSTED_PROXIES", "trusted_proxies"), ("MARCOPOLO_PASSKEY_ORIGINS", "passkey_origins"),
     ("MARCOPOLO_CHAT_DENY", "chat_deny")],  # fmt: skip
)
def test_a_comma_separated_list_from_the_environment(monkeypatch: pytest.MonkeyPatch, env: str, field: str) -> None:
    monkeypatch.setenv(env, " one, two ,,three ")
    assert getattr(Settings(), field) == ("one", "two", "three")


def test_the_admin_token_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARCOPOLO_ADMIN_TOKEN", "a-long-enough-admin-token")
    assert Settings().admin_token == "a-long-enough-admin-token"
