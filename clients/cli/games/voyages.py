"""Terminal renderer for The Voyages of Marco Polo (game id `voyages`).

Owns: drawing the view in words: the round and whose turn, the map as a list of the 25 locations (kind,
bonus, city cards, trading posts, figures) and the 30 routes with their extra costs, the action spaces with
the dice placed on them (the bazaar table, Khan's favor ladder, the money bag), the contract display, the
city cards, every player's board (character, resources, VP, dice, contracts), the viewer's own goal cards,
what is being asked, the recent log in words, the result with its breakdown, and prompt options in words.
Must not: decide rules. It reads the view only (the constant board is under `public.track`).
"""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group
from rich.table import Table
from rich.text import Text

from clients.cli.games import board as shared
from clients.cli.i18n import N_, _, w, w_or
from clients.cli.render import Move, View, register, seat_name

#: player colours by seat, as rich styles
SEAT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")
GOODS: tuple[str, ...] = ("pepper", "silk", "gold")
SPACES: tuple[str, ...] = ("coins", "camels", "pepper", "silk", "gold", "khan", "contracts", "travel")
SPACE_DICE: dict[str, int] = {"coins": 1, "khan": 1, "contracts": 1, "travel": 2}


def kind_name(kind: str) -> str:
    return w_or(f"w.vo.kind.{kind}", kind)


def good_name(good: Any) -> str:
    return w_or(f"w.resname.{good}", str(good))


# ---- words for the pieces ----------------------------------------------------------------------

WORDS = shared.Words(
    own={
        "any_good": lambda n: w("w.res.goodChoice", n=n),
        "two_goods": lambda n: w("w.vo.res.twoGoods", n=n),
        "contract": lambda n: w("w.vo.res.special", n=n),
        "other_city_bonus": lambda n: w("w.vo.res.otherBonus"),
    },
    cards=lambda card: _own_card(card),
)
amount_words, bundle_words, contract_words, card_words = WORDS.amount, WORDS.bundle, WORDS.contract, WORDS.card


def _own_card(card: dict[str, Any]) -> str | None:
    kind = card.get("kind")
    if kind == "by_die":
        amounts = "/".join(str(a) for a in card.get("amount_by_die") or [])
        return w("w.card.byDie", rewards=f"{good_name(card.get('good'))} {amounts}")
    if kind == "city_bonus":
        times = card.get("times_by_die")
        many = w("w.vo.card.timesBy", times="/".join(str(t) for t in times)) if times else w("w.vo.card.timesUpTo")
        words = w("w.vo.card.cityBonus", times=many)
        cost = card.get("cost") or {}
        return w("w.vo.card.payEach", cost=bundle_words(cost), what=words) if cost else words
    return None


class Board(shared.CharacterBoard):
    """Lookups into the constant board under `public.track`."""

    prefix = "vo"

    def __init__(self, public: dict[str, Any]) -> None:
        track = public.get("track") or {}
        super().__init__(track)
        self.nodes: dict[int, dict[str, Any]] = {int(n["id"]): n for n in track.get("nodes") or []}
        self.card_slots: list[int] = list(track.get("city_card_slots") or [])
        self.tiers: list[int] = list(track.get("travel_tier_cost") or [])
        self.beijing_vp: list[int] = list(track.get("beijing_vp") or [])
        self.bazaar: dict[str, Any] = dict(track.get("bazaar") or {})
        self.markers: dict[str, Any] = dict(track.get("city_bonus_markers") or {})

    def name(self, node: Any) -> str:
        """A location's name; oases carry their number (`Oasis 9`), as on the browser's map."""
        try:
            n = self.nodes[int(node)]
        except (KeyError, TypeError, ValueError):
            return w("w.vo.location", n=node)
        if n.get("type") == "oasis":
            return w("w.vo.oasis", n=n["id"])
        return w_or(f"w.vo.city.{n['id']}", str(n.get("name")))

    def kind(self, node: int) -> str:
        return str(self.nodes.get(node, {}).get("type", "?"))

    def space(self, space: str) -> str:
        """An action space in words; a city-card space names its city."""
        if space in SPACES:
            return w(f"w.vo.space.{space}")
        if space.startswith("card-"):
            slot = int(space.split("-")[1])
            city = self.card_slots[slot] if 0 <= slot < len(self.card_slots) else None
            return w("w.vo.cardIn", city=self.name(city))
        return space

    def dice_needed(self, space: str) -> int:
        if space in self.bazaar:
            return int(self.bazaar[space].get("dice", 1))
        return SPACE_DICE.get(space, 1)

    def marker(self, m: Any) -> str:
        return bundle_words(self.markers.get(str(m)))


def die_words(kind: str, value: int) -> str:
    """A die in words: `own 4`, `black 3`, `white 2`, `neutral 1`; Raschid's unrolled dice `own (any value)`."""
    if kind == "own" and int(value) == 0:
        return "own (any value)"
    return f"{kind} {value}"


class VoyagesRenderer(shared.DiceRenderer):
    """The Voyages of Marco Polo: map, action spaces, contracts, city cards, players, your goals, log."""

    game = "voyages"
    prefix = "vo"
    board_key = "track"
    board_class = Board
    words = WORDS
    resources = ("coins", "camels", "pepper", "silk", "gold", "vp")
    cards_title = N_("City cards (one use per round, a post in the city needed)")
    held_title = N_("Contracts held (at most 2 active)")
    offer_title = N_("Goal cards offered (keep 2):")
    breakdown = (
        "in_game", "goal_cards", "goal_cities", "coins", "beijing", "goods", "most_contracts", "all_posts", "total",
    )  # fmt: skip

    # ---- option labels --------------------------------------------------------------------

    def own_label(  # noqa: C901
        self, view: View, option: Move, board: Board, me: dict[str, Any], pending: dict[str, Any]
    ) -> str | None:
        """An option of the Voyages in words (the browser's words, `clients/words/`): `Bazaar: gold (3 dice)`, …."""
        public = view.get("public") or {}
        a = option.get("a")
        if a == "bag":
            return w("w.vo.opt.bag", die=shared.option_die(option))
        if a == "black":
            return w("w.kh.opt.black")
        if a == "column":
            n = int(option["n"])
            res = str(pending.get("res", ""))
            row = (board.bazaar.get(res) or {}).get("by_die") or []
            gain = bundle_words(row[n - 1]) if 0 < n <= len(row) else str(n)
            return w("w.vo.opt.column", n=n, good=good_name(res), gain=gain)
        if a == "goods":
            first, second = option["goods"]
            return w("w.vo.opt.goods", a=amount_words(str(first), 1), b=amount_words(str(second), 1))
        if a == "take":
            cid = option["contract"]
            words = w("w.opt.take", contract=_contract_named(public, cid))
            if "bonus" in option:
                extra = 1 if _eligible_slot(pending, cid) == 4 else 2
                words = w("w.vo.opt.takeBonus", take=words, bonus=amount_words(str(option["bonus"]), extra))
            if "discard" in option:
                words = w("w.opt.takeDiscard", take=words, contract=_contract_named(public, option["discard"]))
            return words
        if a == "step" and "goods" in option:
            first, second = option["goods"]
            move = self.common_label(view, {k: v for k, v in option.items() if k != "goods"}, board, me, pending)
            return w("w.vo.opt.payingGoods", move=move, a=amount_words(str(first), 1), b=amount_words(str(second), 1))
        if a == "trade":
            if "give" in option:
                return w("w.vo.opt.give", good=amount_words(str(option["give"]), 1))
            used = shared.city_card(public, str(pending.get("card", ""))) or {}
            price: dict[str, Any] = {"camels": 2} if used.get("kind") == "either" else dict(used.get("cost") or {})
            good = amount_words(str(option["get"]), 1)
            return w("w.vo.opt.payFor", cost=bundle_words(price), good=good) if price else w("w.opt.good", good=good)
        if a == "post":
            return w("w.vo.opt.post", city=board.name(option["city"]))
        if a == "city":
            city = option["city"]
            marker = (public.get("city_bonus") or {}).get(str(city))
            bonus = w("w.kh.src.city", city=board.name(city), bonus=board.marker(marker))
            return w("w.opt.takeBonus", bonus=bonus)
        if a == "bonus":
            return w("w.vo.opt.bonus", bonus=board.marker(option["marker"]))
        if a == "keep":
            return w("w.vo.opt.keep", contract=_contract_named(public, option["discard"]))
        if a == "decline":
            return w("w.vo.opt.decline")
        if a == "goals":
            kept = []
            for gid in option["keep"]:
                offer = (view.get("private") or {}).get("goal_offer") or []
                g = next((x for x in offer if x.get("id") == gid), None)
                kept.append(goal_words(board, g) if g else w("w.kind.goal"))
            return w("w.vo.opt.goals", goals="; ".join(kept))
        return None

    def own_die(self, me: dict[str, Any], option: Move, die: str) -> str:
        """Raschid names the value of an own die as he places it."""
        if option["kind"] == "own" and me.get("character") == "raschid":
            return w("w.vo.dieAs", v=option["value"])
        return die

    def contract_named(self, public: dict[str, Any], cid: Any) -> str:
        return _contract_named(public, cid)

    def space_label(self, view: View, option: Move, board: Board, me: dict[str, Any]) -> str:
        space = str(option["space"])
        words = w("w.opt.space", space=board.space(space), dice=w("w.dice", n=board.dice_needed(space)))
        if space.startswith("card-"):
            card = _card_at(view.get("public") or {}, int(space.split("-")[1]))
            if card:
                words += f": {card_words(card.get('card'))}"
        return words

    def route_cost(self, board: Board, here: Any, to: Any) -> str:
        return _route_cost(board, here, to)

    def card_way(self, public: dict[str, Any], card_id: str, way: int) -> dict[str, Any] | None:
        ways = _card_ways(public, card_id)
        return ways[way] if len(ways) > 1 and 0 <= way < len(ways) else None

    # ---- the board ------------------------------------------------------------------------

    def phase_words(self, view: View, phase: Any) -> str:
        if phase in ("start", "draft", "goals"):
            return w(f"w.vo.cli.{phase}")
        return str(phase)

    def turn_tail(self, view: View) -> tuple[str, str]:
        public = view["public"]
        first = w("w.vo.cli.startPlayer", who=seat_name(view, public.get("start_player")))
        return first, w("w.kh.cli.black", n=public.get("black_dice", "?"))

    def pending_words(self, view: View, board: Board, item: dict[str, Any], who: str) -> str | None:
        kind = str(item.get("kind"))
        if kind == "dice":
            space = board.space(str(item.get("space")))
            return w("w.vo.now.dice", who=who, space=space, n=len(item.get("picked") or []), need=item.get("need"))
        if kind == "column":
            return w("w.vo.now.column", who=who, good=good_name(item.get("res")), max=item.get("max"))
        if kind == "contracts":
            return w("w.vo.now.contracts", who=who)
        if kind == "keep":
            return w("w.vo.now.keep", who=who, words=contract_words(item.get("contract")))
        if kind == "relocate":
            return w("w.vo.now.relocate", who=who, city=board.name(item.get("city")))
        return None

    def locations(self, view: View, board: Board) -> Table:
        """The 25 locations: kind, bonus (city bonus, outpost bonus, Beijing spaces), posts and figures."""
        public = view["public"]
        posts, figures = shared.pieces_at(public, int)
        cards_at: dict[int, list[dict[str, Any]]] = {}
        for cc in public.get("city_cards") or []:
            cards_at.setdefault(int(cc["city"]), []).append(cc)
        t = Table(title=_("Map: locations"), title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
        for col in (_("location"), _("kind"), _("bonus"), _("trading posts"), _("figures")):
            t.add_column(col)
        for nid in sorted(board.nodes):
            kind = board.kind(nid)
            bonus = ""
            if kind == "small":
                bonus = _("bonus: {bonus}").format(bonus=board.marker((public.get("city_bonus") or {}).get(str(nid))))
            elif kind == "large":
                tile = (public.get("outposts") or {}).get(str(nid))
                bonus = (
                    _("first post: {bonus}").format(bonus=bundle_words(tile.get("reward")))
                    if tile
                    else _("first post bonus taken")
                )
                cards = cards_at.get(nid) or []
                if cards:
                    bonus += "; " + (_("{n} city cards") if len(cards) > 1 else _("{n} city card")).format(n=len(cards))
            elif kind == "beijing":
                bonus = _("posts score {vp} VP").format(vp="/".join(str(v) for v in board.beijing_vp))
            post_text = shared.join_texts(
                [Text(seat_name(view, s, you=False), style=shared.seat_style(s)) for s in posts.get(nid, [])]
            )
            if kind == "beijing":
                order = [int(s) for s in public.get("beijing") or []]
                post_text = shared.join_texts(
                    [
                        Text(f"{seat_name(view, s, you=False)} ({board.beijing_vp[i]} VP)", style=shared.seat_style(s))
                        for i, s in enumerate(order)
                        if i < len(board.beijing_vp)
                    ]
                )
            figs = shared.figure_texts(view, figures.get(nid, []))
            t.add_row(f"{nid:>2} {board.name(nid)}", kind_name(kind), bonus, post_text, shared.join_texts(figs))
        return t

    def routes(self, view: View, board: Board) -> Group:
        """The 30 routes with their extra costs (`free` when only the travel cost applies)."""
        items = []
        for e in board.edges:
            extra = []
            if e.get("coins"):
                extra.append(amount_words("coins", int(e["coins"])))
            if e.get("camels"):
                extra.append(amount_words("camels", int(e["camels"])))
            items.append(f"{board.name(e['a'])} – {board.name(e['b'])}: " + (" + ".join(extra) or _("free")))
        tiers = board.tiers
        steps = ", ".join(
            (_("{n} steps {cost}") if i > 1 else _("{n} step {cost}")).format(n=i, cost=tiers[i])
            for i in range(1, len(tiers))
        )
        head = Text(_("Map: {n} routes").format(n=len(items)), style="bold")
        head.append(
            "  " + _("(extra cost on top of the travel cost in coins: {steps})").format(steps=steps), style="dim"
        )
        return Group(head, Columns(items, padding=(0, 3), column_first=True))

    def action_spaces(self, view: View, board: Board) -> Group:
        """Every action space: what it gives, dice needed and the dice on it; then the bazaar table."""
        public = view["public"]
        spaces = public.get("spaces") or {}
        t = shared.spaces_table(N_("dice placed (a shared blue space costs the lowest die in coins)"))
        travel = _("up to the lowest die steps, paying {costs}").format(costs="/".join(str(x) for x in board.tiers[1:]))
        rows = [
            ("coins", w("w.vo.b.coins")),
            *[(res, _("the bazaar column of the lowest die (below)")) for res in ("camels", "pepper", "silk", "gold")],
            ("contracts", _("1 or 2 contracts from the slots up to the die")),
            ("travel", travel),
        ]
        for space, gives in rows:
            t.add_row(
                board.space(space),
                str(board.dice_needed(space)),
                gives,
                shared.placements_text(view, spaces.get(space)),
            )
        khan = shared.khan_ladder(view, public.get("khan"))
        t.add_row(board.space("khan"), "1", _("2 camels + 1 good; each die ≥ the last"), khan)
        bag = shared.placements_text(view, public.get("bag"))
        t.add_row(w("w.kh.space.bag"), "1", _("3 coins (bonus action)"), bag)
        bazaar = Table(title=_("Bazaar by column"), title_justify="left", show_edge=False, pad_edge=False)
        bazaar.add_column(_("row"))
        for col in range(1, 7):
            bazaar.add_column(str(col))
        for res in ("camels", "pepper", "silk", "gold"):
            row = (board.bazaar.get(res) or {}).get("by_die") or []
            bazaar.add_row(_(res), *(bundle_words(r) for r in row))
        return Group(t, bazaar)

    def contracts(self, view: View, board: Board) -> Text:
        """The contract display by slot (slots 5 and 6 add coins or camels) and the piles."""
        public = view["public"]
        text = Text(_("Contract display"), style="bold")
        display = public.get("display") or []
        if not display:
            text.append("\n  " + _("(empty)"), style="dim")
        for i, c in enumerate(display, 1):
            extra = f" ({w('w.vo.b.extra1')})" if i == 5 else f" ({w('w.vo.b.extra2')})" if i == 6 else ""
            text.append(f"\n  {w('w.vo.b.slot', n=i)}: {contract_words(c)}{extra}")
        piles = public.get("piles") or []
        text.append(
            "\n  "
            + _("Piles for the next rounds: {piles}; special pile: {n}.").format(
                piles=", ".join(str(p) for p in piles) or _("none"), n=public.get("special", 0)
            ),
            style="dim",
        )
        return text

    def card_place(self, board: Board, cc: dict[str, Any]) -> str:
        return board.name(cc.get("city"))

    def card_used(self, view: View, cc: dict[str, Any], text: Text) -> None:
        used = cc.get("used")
        if used:
            text.append("  " + _("used by") + " ")
            text.append_text(shared.placement_text(view, used))

    def held_words(self, view: View, board: Board, p: dict[str, Any]) -> str:
        return ": " + ("; ".join(contract_words(c) for c in p.get("contracts") or []) or _("none"))

    def goal_text(self, board: Board, g: dict[str, Any], posts: set[Any] | None) -> str:
        return goal_words(board, g, posts)

    def posts_of(self, p: dict[str, Any]) -> set[Any] | None:
        return {int(c) for c in p.get("posts") or []}

    def your_board_more(self, view: View, board: Board, text: Text) -> None:
        gone = (view.get("private") or {}).get("goals_discarded") or []
        if gone:
            text.append("\n  " + _("Goal cards you discarded:") + " " + "; ".join(goal_words(board, g) for g in gone))

    def event(self, view: View, ev: dict[str, Any]) -> str:
        return event_words(view, ev)


def goal_words(board: Board, g: dict[str, Any] | None, posts: set[int] | None = None) -> str:
    """A goal card: `Karakorum + Xian, 4 VP`, with the cities where the player has a post ticked."""
    if not g:
        return "?"
    names = []
    for c in g.get("cities") or []:
        mark = " ✓" if posts is not None and int(c) in posts else ""
        names.append(f"{board.name(c)}{mark}")
    return w("w.vo.goal", cities=" + ".join(names), vp=g.get("vp"))


def _contract_named(public: dict[str, Any], cid: Any) -> str:
    """A contract by what it asks and gives (yours, anyone's or on display), or `a contract` once it is gone."""
    for p in public.get("players") or []:
        c = _contract(public, p, str(cid))
        if c:
            return w("w.contract.the", words=contract_words(c))
    return w("w.kind.contract")


def _contract(public: dict[str, Any], me: dict[str, Any] | None, cid: str) -> dict[str, Any] | None:
    for c in [*((me or {}).get("contracts") or []), *(public.get("display") or [])]:
        if c.get("id") == cid:
            return c  # type: ignore[no-any-return]
    return None


def _eligible_slot(pending: dict[str, Any] | None, cid: str) -> int | None:
    for slot, c in (pending or {}).get("eligible") or []:
        if c == cid:
            return int(slot)
    return None


def _card_at(public: dict[str, Any], slot: int) -> dict[str, Any] | None:
    for cc in public.get("city_cards") or []:
        if int(cc.get("slot", -1)) == slot:
            return cc  # type: ignore[no-any-return]
    return None


def _card_ways(public: dict[str, Any], card_id: str) -> list[dict[str, Any]]:
    card = shared.city_card(public, card_id) or {}
    if card.get("kind") == "either":
        return list(card.get("ways") or [])
    return [card]


def _route_cost(board: Board, a: Any, b: Any) -> str:
    if a is None:
        return ""
    for e in board.edges:
        if {int(e["a"]), int(e["b"])} == {int(a), int(b)}:
            extra = []
            if e.get("coins"):
                extra.append(amount_words("coins", int(e["coins"])))
            if e.get("camels"):
                extra.append(amount_words("camels", int(e["camels"])))
            return " + ".join(extra)
    return ""


def event_words(view: View, ev: dict[str, Any]) -> str:  # noqa: C901
    """One log event in words, as the browser says it (compact JSON for an event this client does not know)."""
    public = view.get("public") or {}
    board = Board(public)

    def die(k: Any, v: Any) -> str:
        return str(v) if k == "own" else f"{w(f'w.diekind.{k}')} {v}"

    def own(who: str) -> str | None:  # noqa: C901
        kind = ev.get("ev")

        def log(key: str, **params: Any) -> str:
            return w(f"w.vo.log.{key}", who=who, **params).rstrip(".")

        def common(key: str, **params: Any) -> str:
            return w(key, who=who, **params).rstrip(".")

        if kind == "round":
            return log("round", round=ev["round"], first=seat_name(view, ev.get("start_player")))
        if kind == "roll":
            return log("roll", dice=", ".join("?" if int(v) == 0 else die(k, v) for k, v in ev["dice"]))
        if kind == "bazaar":
            row = (board.bazaar.get(ev["res"]) or {}).get("by_die") or []
            n = int(ev["column"])
            return log("bazaar", gain=bundle_words(row[n - 1]) if 0 < n <= len(row) else str(n))
        if kind == "take_contract" and ev.get("discard"):
            what = _contract_named(public, ev.get("contract"))
            return log("tookDiscard", what=what, old=_contract_named(public, ev.get("discard")))
        if kind == "step":
            cost = [amount_words(k, int(ev[k])) for k in ("coins", "camels") if ev.get(k)]
            where = {"from": board.name(ev["from"]), "to": board.name(ev["to"])}
            return log("stepCost", cost=" + ".join(cost), **where) if cost else None
        if kind == "outpost_bonus":
            return log("outpost", city=board.name(ev["city"]))
        if kind == "bag":
            k, v = ev["die"]
            return log("bag", die=die(k, v) if int(v) else w("w.vo.aDie"))
        if kind == "reroll":
            return common("w.log.reroll", **{"from": die(ev["kind"], ev["from"]), "to": ev["to"]})
        if kind == "adjust":
            return common(
                "w.log.adjust", **{"from": die(ev["kind"], ev["from"]), "to": int(ev["from"]) + int(ev["by"])}
            )
        if kind == "compensation":
            coins, camels = amount_words("coins", int(ev["coins"])), amount_words("camels", int(ev["camels"]))
            return log("compensation", coins=coins, camels=camels)
        if kind == "special_contract":
            if "contract" in ev:
                return log("special", what=_contract_named(public, ev.get("contract")))
            return log("specialKept" if ev.get("kept") else "specialDeclined")
        if kind == "mercator":
            return log("mercator", what=good_name(ev["res"]))
        if kind == "card_times":
            return common("w.log.cardTimes", n=int(ev["times"]))
        if kind == "display_refill":
            return log("refill", n=len(ev.get("contracts") or []))
        if kind == "goals_kept":
            return log("goalsKept")
        return None

    def placed(k: Any, v: Any) -> str:
        return die(k, v) if int(v) else w("w.vo.aDie")

    return shared.event_sentence(view, ev, board, own, lambda cid: _contract_named(public, cid), placed)


RENDERER = register(VoyagesRenderer())
