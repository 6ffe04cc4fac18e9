"""The session's token file: where it lives, who may read it, and what a missing or empty one means."""

from __future__ import annotations

import stat
from pathlib import Path

from clients.cli.__main__ import parse_args, room_options
from clients.cli.session import default_token_file, read_token, write_token


def test_the_token_file_is_kept_per_name_under_the_home_folder() -> None:
    assert default_token_file("ann") == Path.home() / ".marcopolo" / "token-ann"
    assert default_token_file("Ann Lee/../x").name == "token-Ann_Lee_.._x"


def test_a_written_token_is_read_back_and_only_its_owner_may_read_it(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "token-ann"
    assert read_token(path) is None
    write_token(path, "abc123")
    assert read_token(path) == "abc123"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_text("\n")
    assert read_token(path) is None


def test_room_options_come_from_the_command_line() -> None:
    args = parse_args(["--create", "--option", "open_gold=true", "--option", "label=fast", "--room-seed", "9"])
    assert room_options(args) == {"open_gold": True, "label": "fast", "seed": 9}
