"""`python -m loadtests.frame_sizes`: what a room's `patch` frames are made of, per game, without sockets.

Seeded random 4-seat games; for every move, every seat's `patch` frame is built with the room's own
functions (the shared part's diff once, each seat's `own_patch`, `patch_frame`), and every few moves each
seat's in-game snapshot frame. Prints the median frame and snapshot sizes (the ratio the bench's size target
reads), the frame-size quantiles, and the share of all frame bytes by operation and path (`add /public/log`:
the log events added; `frame`: the frame's own fields `t`, `room`, `base`, `v`).
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgpack

from loadtests.diff_bench import own_part, shared_part
from protocol.codec import encode_ops, patch_frame
from protocol.patch import make_patch_builtin
from server.games import all_games
from server.rooms.core import own_patch

ROOM = "r" + "0" * 10  # the length of a real room id ("r" and 10 hex digits)


def frames(game_id: str, games: int, seed: int) -> Iterator[tuple[str, bytes, list[dict[str, Any]]]]:
    """("patch", frame, its operations) for every seat and move, and ("snapshot", frame, []) now and then."""
    game = all_games()[game_id]
    room_keys = {"game": game_id, "room": ROOM, "status": "playing", "options": {}}  # (the same every version)

    def shared(state: Any) -> dict[str, Any]:
        return {**room_keys, **shared_part(game, state)}

    def own(state: Any, seat: int) -> dict[str, Any]:
        return own_part(game, state, seat)

    for g in range(games):
        rng = random.Random(seed + g)
        state = game.setup(4, None, seed + g)
        for v in range(1, 400):
            active = game.active_seats(state)
            if not active or game.result(state) is not None:
                break
            seat = active[0]
            new = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
            shared_ops = make_patch_builtin(shared(state), shared(new), copy=False)
            packed = encode_ops(shared_ops)
            for s in range(4):
                ops = own_patch(own(state, s), own(new, s))
                yield "patch", patch_frame(ROOM, v - 1, v, packed, ops), shared_ops + ops
            if v % 7 == 3:
                for s in range(4):
                    view = {**shared(new), **own(new, s)}
                    msg = {"t": "snapshot", "re": 7, "room": ROOM, "v": v, "state": view}
                    yield "snapshot", msgpack.packb(msg, use_bin_type=True), []
            state = new


def kind(op: dict[str, Any]) -> str:
    """An operation's kind: its op and the first two parts of its path (three under `/public`)."""
    parts = op["path"].split("/")
    return op["op"] + " " + "/".join(parts[:3] if len(parts) > 2 and parts[1] == "public" else parts[:2])


def measure(game_id: str, games: int, seed: int) -> dict[str, Any]:
    patches: list[int] = []
    snapshots: list[int] = []
    shares: Counter[str] = Counter()
    for what, frame, ops in frames(game_id, games, seed):
        if what == "snapshot":
            snapshots.append(len(frame))
            continue
        patches.append(len(frame))
        sizes = [len(msgpack.packb(op, use_bin_type=True)) for op in ops]
        for op, size in zip(ops, sizes, strict=True):
            shares[kind(op)] += size
        shares["frame"] += len(frame) - sum(sizes)
    total = sum(patches)
    patches.sort()
    return {
        "patch": statistics.median(patches),
        "snapshot": statistics.median(snapshots),
        "quantiles": {q: patches[int(q * (len(patches) - 1))] for q in (0.1, 0.25, 0.5, 0.75, 0.9)},
        "shares": [(k, n / total) for k, n in shares.most_common()],
        "frames": len(patches),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="all", help="a game id or all (default)")
    ap.add_argument("--games", type=int, default=8, help="random games per game id (default 8)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--top", type=int, default=10, help="kinds of operation listed (default 10)")
    a = ap.parse_args(argv)
    ids = sorted(all_games()) if a.game == "all" else [a.game]
    for game_id in ids:
        m = measure(game_id, a.games, a.seed)
        ratio = 100 * m["patch"] / m["snapshot"]
        print(f"{game_id}: median patch frame {m['patch']:g} B, median in-game snapshot {m['snapshot']:g} B "
              f"({ratio:.1f}%), {m['frames']} frames")  # fmt: skip
        print("  frame bytes at " + ", ".join(f"{int(q * 100)}%: {b}" for q, b in m["quantiles"].items()))
        for k, share in m["shares"][: a.top]:
            print(f"  {100 * share:5.1f}%  {k}")


if __name__ == "__main__":
    main()
