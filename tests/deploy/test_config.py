"""Settings: flags beat MARCOPOLO_* variables beat defaults; keyword construction keeps working; JSON logs."""

from __future__ import annotations

import io
import json
import logging
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from server.__main__ import build_parser, parse
from server.config import JsonFormatter, Settings, setup_logging

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No MARCOPOLO_* variable of the caller's shell leaks into these tests."""
    import os

    for key in list(os.environ):
        if key.startswith("MARCOPOLO_"):
            monkeypatch.delenv(key)


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    ws_level = logging.getLogger("websockets").level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.getLogger("websockets").setLevel(ws_level)


def test_defaults_are_those_of_a_local_single_node() -> None:
    s = parse([])
    assert (s.host, s.port, s.store, s.prefix) == ("127.0.0.1", 8765, "sqlite:///./data/marcopolo.db", "mp:")
    assert s.node_id == f"{socket.gethostname()}-8765".replace(":", "-")
    assert (s.log_level, s.log_format) == ("INFO", "text")
    assert s.allow_client_seed is False


def test_an_environment_variable_sets_a_field_and_a_flag_beats_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARCOPOLO_PORT", "9100")
    monkeypatch.setenv("MARCOPOLO_HOST", "0.0.0.0")
    monkeypatch.setenv("MARCOPOLO_STORE", "redis://127.0.0.1:6390/2")
    monkeypatch.setenv("MARCOPOLO_LEASE_MS", "2500")
    monkeypatch.setenv("MARCOPOLO_ALLOW_CLIENT_SEED", "true")
    s = parse(["--port", "9200", "--no-allow-client-seed"])
    assert s.port == 9200  # the flag
    assert s.host == "0.0.0.0" and s.store == "redis://127.0.0.1:6390/2" and s.lease_ms == 2500  # the environment
    assert s.allow_client_seed is False
    assert s.node_id.endswith("-9200")  # the derived node id follows the port actually used


def test_every_settings_field_has_a_flag_and_a_help_naming_its_variable() -> None:
    text = build_parser().format_help()
    for name, info in Settings.model_fields.items():
        assert "--" + name.replace("_", "-") in text, name
        assert f"MARCOPOLO_{name.upper()}" in text.replace("\n", "").replace(" ", ""), name
        assert info.description, f"{name} has no description (its flag's help)"


def test_the_existing_flags_still_parse() -> None:
    s = parse(
        "--host 0.0.0.0 --port 1 --store redis://h:1/0 --prefix x: --node-id n1 --max-frame 2048 --rate 5 "
        "--burst 6 --finished-ttl 60 --bot-delay 0 --web-root /srv/web --allow-client-seed --log-level debug".split()
    )
    assert s.model_dump(include={"host", "port", "store", "prefix", "node_id", "rate", "burst"}) == {
        "host": "0.0.0.0", "port": 1, "store": "redis://h:1/0", "prefix": "x:", "node_id": "n1", "rate": 5.0,
        "burst": 6,
    }
    assert (s.max_frame, s.hard_frame_limit) == (2048, 8192)  # the hard limit follows max-frame, as before
    assert (s.finished_ttl, s.bot_delay, s.web_root, s.allow_client_seed) == (60, 0.0, "/srv/web", True)
    assert s.log_level == "DEBUG"


def test_keyword_construction_works_and_beats_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARCOPOLO_RATE", "3")
    s = Settings(port=0, allow_client_seed=True, rate=1000.0, burst=2000, node_id="a")
    assert (s.port, s.rate, s.burst, s.node_id, s.allow_client_seed) == (0, 1000.0, 2000, "a", True)
    assert Settings().rate == 3.0
    with pytest.raises(ValidationError):
        s.port = 5  # type: ignore[misc]  # frozen
    with pytest.raises(ValidationError):
        Settings(prot=1)  # type: ignore[call-arg]  # a misspelt field is an error, not ignored


def test_an_explicit_hard_frame_limit_is_kept_and_must_exceed_max_frame() -> None:
    assert Settings(max_frame=1024, hard_frame_limit=8192).hard_frame_limit == 8192
    with pytest.raises(ValidationError):
        Settings(max_frame=1024, hard_frame_limit=512)


def test_bad_values_are_refused_with_the_flag_and_variable_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse(["--log-format", "xml"])
    with pytest.raises(SystemExit):
        parse(["--port", "70000"])
    assert "--port / MARCOPOLO_PORT" in capsys.readouterr().err


def test_json_log_lines_carry_level_logger_node_message_extras_and_tracebacks(restore_logging: None) -> None:
    out = io.StringIO()
    setup_logging(Settings(node_id="node-j", log_format="json", log_level="INFO"), stream=out)
    log = logging.getLogger("marcopolo.test")
    log.info("room %s moved", "r1", extra={"room": "r1"})
    log.debug("not shown at INFO")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        log.exception("failed")
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == 2
    first, second = lines
    assert first["level"] == "INFO" and first["logger"] == "marcopolo.test" and first["node"] == "node-j"
    assert first["msg"] == "room r1 moved" and first["room"] == "r1"
    assert first["ts"].endswith("Z")
    assert second["level"] == "ERROR" and "RuntimeError: boom" in second["exc"]


def test_a_value_that_is_not_json_is_logged_as_text() -> None:
    rec = logging.makeLogRecord({"msg": "x", "levelname": "INFO", "name": "t", "obj": object()})
    line = json.loads(JsonFormatter("n").format(rec))
    assert line["obj"].startswith("<object object")


def test_a_node_started_with_log_format_json_writes_only_json_lines(tmp_path: Path) -> None:
    """The real entry point: every stderr line of a node started and stopped is one JSON object."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"PATH": "/usr/bin:/bin", "MARCOPOLO_LOG_FORMAT": "json", "MARCOPOLO_NODE_ID": "env-node",
           "MARCOPOLO_STORE": "memory"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port)],
        cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stderr is not None
        lines = []
        for _ in range(50):  # bounded: the node prints three lines on start
            line = proc.stderr.readline()
            if not line:
                break
            lines.append(json.loads(line))
            if "listening on" in lines[-1]["msg"]:
                break
    finally:
        proc.terminate()
        _, rest = proc.communicate(timeout=20)
    lines += [json.loads(line) for line in rest.splitlines() if line.strip()]
    assert any("listening on" in line["msg"] for line in lines)
    assert {line["node"] for line in lines} == {"env-node"}
    start = next(line for line in lines if line["msg"].startswith("starting node"))
    assert start["settings"]["port"] == port and "store" not in start["settings"]  # no credentials in logs
    assert proc.returncode == 0


def _start_node(cwd: Path, *args: str) -> list[str]:
    """Start `python -m server` in `cwd` with no MARCOPOLO_* variable, wait until it listens, stop it; its log."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), *args],
        cwd=cwd, env=env, stderr=subprocess.PIPE, text=True,
    )
    lines: list[str] = []
    try:
        assert proc.stderr is not None
        for _ in range(50):  # bounded: the node prints a few lines on start
            line = proc.stderr.readline()
            if not line:
                break
            lines.append(line)
            if "ready: " in line:  # after "listening on" and the store's warning, if any
                break
    finally:
        proc.terminate()
        _, rest = proc.communicate(timeout=20)
    assert proc.returncode == 0, rest
    return lines + rest.splitlines()


def test_a_node_started_with_no_store_named_keeps_its_rooms_in_a_sqlite_file_it_creates(tmp_path: Path) -> None:
    lines = _start_node(tmp_path)
    assert (tmp_path / "data" / "marcopolo.db").is_file()
    assert any("ready: 0 unfinished rooms from sqlite:///./data/marcopolo.db" in line for line in lines), lines
    assert not any("nothing survives" in line for line in lines)


def test_a_node_on_the_memory_store_says_at_start_that_nothing_survives_a_restart(tmp_path: Path) -> None:
    lines = _start_node(tmp_path, "--store", "memory")
    assert any("WARNING" in line and "nothing survives a restart" in line for line in lines), lines
    assert not (tmp_path / "data").exists()
