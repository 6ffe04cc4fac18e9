# ruff: noqa: F811 - `records` is the fixture imported from test_records_sql
"""Moderation in the records database: the same behaviour on SQLite, a real PostgreSQL and in memory. Blocks are
one player's list; reports keep their context and are resolved once; bans are in force until their time or until
lifted, by account, address or network; the audit log is read newest first; a chat line is deleted by its id."""

from __future__ import annotations

from server.store.records import Records

from .test_records_sql import records  # noqa: F401 - the fixture: SQLite, PostgreSQL, memory


async def test_blocks_are_one_players_list(records: Records) -> None:
    await records.set_block("pa", "pb", True, 100, "Bob")
    await records.set_block("pa", "pb", True, 101, "Bobby")  # twice: one block, the first name
    await records.set_block("pa", "pc", True, 102)
    await records.set_block("pb", "pa", True, 103)
    assert await records.blocked_by("pa") == {"pb", "pc"}
    assert await records.block_list("pa") == [("pc", None), ("pb", "Bob")]  # newest first
    assert await records.blocks("pa", "pb") and not await records.blocks("pc", "pa")
    await records.set_block("pa", "pb", False, 104)
    await records.set_block("pa", "zz", False, 105)  # nothing to unblock: no error
    assert await records.blocked_by("pa") == {"pc"} and not await records.blocks("pa", "pb")
    assert await records.blocked_by("nobody") == set()


async def test_reports_keep_their_context_and_are_resolved_once(records: Records) -> None:
    context = {"chat": [{"from": "pb", "name": "Bob", "text": "rude words", "at": 5}], "log": [{"text": "x"}]}
    first = await records.add_report("pa", "pb", "r1", "insults in chat", context, 1000)
    second = await records.add_report("pc", "pb", None, "spam", {"chat": []}, 1001)
    third = await records.add_report("pc", "pd", None, "name", {}, 1002)
    assert first < second < third
    got = await records.reports()
    assert [r.id for r in got] == [third, second, first]
    assert got[2].context == context and got[2].room == "r1" and got[2].reason == "insults in chat"
    assert [r.id for r in await records.reports(player="pb")] == [second, first]
    done = await records.resolve_report(first, "warned", 2000)
    assert done is not None and done.resolved_at == 2000 and done.resolution == "warned"
    again = await records.resolve_report(first, "something else", 3000)
    assert again is not None and again.resolved_at == 2000 and again.resolution == "warned"
    assert await records.resolve_report(9999, "x", 3000) is None
    assert [r.id for r in await records.reports()] == [third, second]
    assert [r.id for r in await records.reports(open_only=False, player="pb")] == [second, first]


async def test_bans_hold_until_their_time_or_until_lifted(records: Records) -> None:
    timed = await records.add_ban("player", "pa", "cheating", 1000, 2000, "admin")
    forever = await records.add_ban("addr", "10.0.0.7", "flooding", 1001, None, "admin")
    net = await records.add_ban("net", "192.168.5.0/24", "abuse", 1002, None, "admin")
    assert [b.id for b in await records.bans()] == [net.id, forever.id, timed.id]
    assert [b.id for b in await records.bans_on("player", ["pa", "pz"], 1500)] == [timed.id]
    assert await records.bans_on("player", ["pa"], 2000) == []  # its time is over
    assert [b.reason for b in await records.bans_on("addr", ["10.0.0.7"], 10**9)] == ["flooding"]
    assert [b.value for b in await records.bans_on("net", [], 1500)] == ["192.168.5.0/24"]
    assert [b.id for b in await records.bans(active_at=2500)] == [net.id, forever.id]
    lifted = await records.lift_ban(forever.id, 3000)
    assert lifted is not None and lifted.lifted_at == 3000 and not lifted.active(3001)
    assert await records.bans_on("addr", ["10.0.0.7"], 3001) == []
    assert (await records.lift_ban(forever.id, 4000)).lifted_at == 3000  # type: ignore[union-attr]
    assert await records.lift_ban(9999, 4000) is None
    assert [b.id for b in await records.bans(active_at=3001)] == [net.id]


async def test_the_audit_log_reads_newest_first(records: Records) -> None:
    ids = [await records.add_audit("admin", f"act{i}", f"t{i}", {"i": i}, 1000 + i) for i in range(5)]
    got = await records.audit(limit=3)
    assert [a["action"] for a in got] == ["act4", "act3", "act2"] and got[0]["detail"] == {"i": 4}
    older = await records.audit(limit=10, before=got[-1]["id"])
    assert [a["id"] for a in older] == ids[:2][::-1] and older[0]["target"] == "t1"


async def test_a_chat_line_is_deleted_by_its_id(records: Records) -> None:
    for i in range(3):
        await records.add_chat("r1", {"line": f"l{i}", "text": f"line {i}", "room": "r1"})
        await records.add_chat(None, {"line": f"l{i}", "text": f"lobby {i}", "room": None})
    gone = await records.delete_chat("r1", "l1")
    assert gone is not None and gone["text"] == "line 1"
    assert [x["line"] for x in await records.chat("r1")] == ["l0", "l2"]
    assert [x["line"] for x in await records.chat(None)] == ["l0", "l1", "l2"]  # the lobby's own lines stay
    assert await records.delete_chat("r1", "l1") is None
