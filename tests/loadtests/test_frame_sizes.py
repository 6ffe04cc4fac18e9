"""`python -m loadtests.frame_sizes`: its frames are the room's, and its shares add up."""

from __future__ import annotations

import msgpack
import pytest

from loadtests.frame_sizes import frames, main, measure
from protocol.patch import apply_patch_builtin


def test_every_patch_frame_holds_the_operations_it_is_counted_by() -> None:
    patches = snapshots = 0
    for what, frame, ops in frames("expedition", 1, 5):
        msg = msgpack.unpackb(frame, raw=False)
        if what == "snapshot":
            snapshots += 1
            assert msg["t"] == "snapshot" and ops == []
            continue
        patches += 1
        assert msg["t"] == "patch" and msg["v"] == msg["base"] + 1
        assert msg["ops"] == ops
    assert patches > 40 and snapshots > 4


def test_a_snapshot_plus_the_next_patches_of_its_seat_gives_the_next_snapshot() -> None:
    seen: list[tuple[str, dict[str, object]]] = [
        (what, msgpack.unpackb(frame, raw=False)) for what, frame, _ops in frames("classic", 1, 2)
    ]
    snaps = [(i, m) for i, (what, m) in enumerate(seen) if what == "snapshot"]
    (i0, first), (i1, second) = snaps[0], snaps[4]  # seat 0's snapshot at two versions
    assert first["state"]["you"] == second["state"]["you"] == 0
    view = first["state"]
    seat_frames = [m for what, m in seen[i0:i1] if what == "patch" and m["base"] >= first["v"]][0::4]
    for m in seat_frames:
        view = apply_patch_builtin(view, m["ops"])
    assert view == second["state"]


def test_the_shares_cover_every_frame_byte_and_the_ratio_is_of_the_medians(
    capsys: pytest.CaptureFixture[str],
) -> None:
    m = measure("expedition", 2, 0)
    assert abs(sum(share for _k, share in m["shares"]) - 1.0) < 1e-9
    assert any(k == "add /public/log" for k, _s in m["shares"])
    assert m["quantiles"][0.5] <= m["quantiles"][0.9]
    main(["--game", "expedition", "--games", "1", "--top", "3"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("expedition: median patch frame") and len(out) == 5
