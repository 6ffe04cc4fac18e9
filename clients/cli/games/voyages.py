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
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clients.cli.games.board import Words, dice_prompt_text, dice_text, my_pending, placement_text
from clients.cli.games.board import die_words as die_words_of
from clients.cli.games.board import join_texts as _join
from clients.cli.games.board import seat_style as _style
from clients.cli.i18n import N_, _, w, w_or
from clients.cli.render import GameRenderer, Move, View, compact, register, result_table, seat_name

#: player colours by seat, as rich styles
SEAT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")
GOODS: tuple[str, ...] = ("pepper", "silk", "gold")
SPACES: tuple[str, ...] = ("coins", "camels", "pepper", "silk", "gold", "khan", "contracts", "travel")
SPACE_DICE: dict[str, int] = {"coins": 1, "khan": 1, "contracts": 1, "travel": 2}
LOG_SHOWN = 10


def kind_name(kind: str) -> str:
    return w_or(f"w.vo.kind.{kind}", kind)


def good_name(good: Any) -> str:
    return w_or(f"w.resname.{good}", str(good))


# ---- words for the pieces ----------------------------------------------------------------------

WORDS = Words(
    own={
        "any_good": lambda n: w("w.res.goodChoice", n=n),
        "two_goods": lambda n: w("w.vo.res.twoGoods", n=n),
        "contract": lambda n: w("w.vo.res.special", n=n),
        "other_city_bonus": lambda n: w("w.vo.res.otherBonus"),
    }
)
amount_words = WORDS.amount
bundle_words = WORDS.bundle
contract_words = WORDS.contract


def card_words(card: dict[str, Any] | None) -> str:
    """A city card's effect in words (repetitions come from the die placed on it), as the browser says it."""
    if not card:
        return "—"
    kind = card.get("kind")
    if kind == "per_pip":
        return w("w.card.perPip", reward=bundle_words(card.get("reward")))
    if kind == "by_die":
        amounts = "/".join(str(a) for a in card.get("amount_by_die") or [])
        return w("w.card.byDie", rewards=f"{good_name(card.get('good'))} {amounts}")
    if kind == "count":
        key = "w.card.perPost" if card.get("counts") == "posts" else "w.card.perContract"
        return w(key, reward=bundle_words(card.get("reward")))
    if kind == "trade":
        return w("w.card.trade", cost=bundle_words(card.get("cost")), reward=bundle_words(card.get("reward")))
    if kind == "either":
        ways = [
            w("w.card.way", cost=bundle_words(x.get("cost")), reward=bundle_words(x.get("reward")))
            for x in card.get("ways") or []
        ]
        return w("w.card.either", ways=f" {w('w.orShort')} ".join(ways))
    if kind == "city_bonus":
        times = card.get("times_by_die")
        many = w("w.vo.card.timesBy", times="/".join(str(t) for t in times)) if times else w("w.vo.card.timesUpTo")
        words = w("w.vo.card.cityBonus", times=many)
        cost = card.get("cost") or {}
        return w("w.vo.card.payEach", cost=bundle_words(cost), what=words) if cost else words
    return compact(card)


class Board:
    """Lookups into the constant board under `public.track`."""

    def __init__(self, public: dict[str, Any]) -> None:
        track = public.get("track") or {}
        self.nodes: dict[int, dict[str, Any]] = {int(n["id"]): n for n in track.get("nodes") or []}
        self.edges: list[dict[str, Any]] = list(track.get("edges") or [])
        self.card_slots: list[int] = list(track.get("city_card_slots") or [])
        self.tiers: list[int] = list(track.get("travel_tier_cost") or [])
        self.beijing_vp: list[int] = list(track.get("beijing_vp") or [])
        self.bazaar: dict[str, Any] = dict(track.get("bazaar") or {})
        self.characters: dict[str, Any] = dict(track.get("characters") or {})
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

    def character(self, cid: str | None) -> str:
        if not cid:
            return "—"
        return w_or(f"w.vo.char.{cid}", str((self.characters.get(cid) or {}).get("name") or cid))

    def ability(self, cid: str | None) -> str:
        return w_or(f"w.vo.ability.{cid}", str((self.characters.get(cid or "") or {}).get("ability", "")))

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


class VoyagesRenderer(GameRenderer):
    """The Voyages of Marco Polo: map, action spaces, contracts, city cards, players, your goals, log."""

    game = "voyages"

    # ---- option labels --------------------------------------------------------------------

    def label(self, view: View, option: Move) -> str:  # noqa: C901
        """A prompt option in words (the browser's words, `clients/words/`): `Bazaar: gold (3 dice)`, `Move …`."""
        public = view.get("public") or {}
        board = Board(public)
        a = option.get("a")
        me = _me(view) or {}
        pending = my_pending(view) or {}
        try:
            die = die_words_of(str(option.get("kind", "own")), int(option.get("value", 0) or 0))
            if a == "space":
                space = str(option["space"])
                words = w("w.opt.space", space=board.space(space), dice=w("w.dice", n=board.dice_needed(space)))
                if space.startswith("card-"):
                    card = _card_at(public, int(space.split("-")[1]))
                    if card:
                        words += f": {card_words(card.get('card'))}"
                return words
            if a == "die":
                if option["kind"] == "own" and me.get("character") == "raschid":
                    die = w("w.vo.dieAs", v=option["value"])
                if pending.get("kind") == "dice":
                    return w("w.opt.dieOn", die=die, space=board.space(str(pending.get("space"))))
                return w("w.opt.die", die=die)
            if a == "cancel":
                return w("w.opt.cancel")
            if a == "fulfil":
                return w("w.opt.fulfil", contract=_contract_named(public, option["contract"]))
            if a == "bag":
                return w("w.vo.opt.bag", die=die)
            if a == "reroll":
                return w("w.opt.reroll", die=die)
            if a == "adjust":
                return w("w.opt.adjust", die=die, to=int(option["value"]) + int(option["by"]))
            if a == "black":
                return w("w.kh.opt.black")
            if a == "end":
                return w("w.opt.end")
            if a == "column":
                n = int(option["n"])
                res = str(pending.get("res", ""))
                row = (board.bazaar.get(res) or {}).get("by_die") or []
                gain = bundle_words(row[n - 1]) if 0 < n <= len(row) else str(n)
                return w("w.vo.opt.column", n=n, good=good_name(res), gain=gain)
            if a == "good":
                return w("w.opt.good", good=amount_words(str(option["good"]), 1))
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
            if a == "done":
                return w("w.opt.doneContracts")
            if a == "step":
                figs = me.get("figures") or []
                fig = int(option["fig"])
                here = figs[fig] if 0 <= fig < len(figs) else None
                key = "w.opt.stepFig" if len(figs) > 1 else "w.opt.step"
                words = w(key, fig=fig + 1, **{"from": board.name(here), "to": board.name(option["to"])})
                cost = _route_cost(board, here, option["to"])
                if cost:
                    words += f" ({w('w.route', cost=cost)})"
                if "goods" in option:
                    first, second = option["goods"]
                    words = w(
                        "w.vo.opt.payingGoods",
                        move=words,
                        a=amount_words(str(first), 1),
                        b=amount_words(str(second), 1),
                    )
                return words
            if a == "stop":
                kind = pending.get("kind")
                return w(f"w.kh.opt.stop.{kind}") if kind in ("travel", "card") else w("w.opt.stop")
            if a == "times":
                times, way = int(option["n"]), int(option["way"])
                text = w("w.opt.times", n=times)
                ways = _card_ways(public, str(pending.get("card") or ""))
                if len(ways) > 1 and 0 <= way < len(ways):
                    cost, reward = bundle_words(ways[way].get("cost")), bundle_words(ways[way].get("reward"))
                    text += f" ({w('w.card.way', cost=cost, reward=reward)})"
                return text
            if a == "trade":
                if "give" in option:
                    return w("w.vo.opt.give", good=amount_words(str(option["give"]), 1))
                used = _card_data(public, str(pending.get("card", ""))) or {}
                price: dict[str, Any] = {"camels": 2} if used.get("kind") == "either" else dict(used.get("cost") or {})
                good = amount_words(str(option["get"]), 1)
                return (
                    w("w.vo.opt.payFor", cost=bundle_words(price), good=good) if price else w("w.opt.good", good=good)
                )
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
            if a == "relocate":
                return w("w.opt.relocate", city=board.name(option["from"]))
            if a == "comp":
                coins = int(option["coins"])
                camels = int(pending.get("amount", coins)) - coins
                return w("w.opt.comp", coins=amount_words("coins", coins), camels=amount_words("camels", camels))
            if a == "goals":
                kept = []
                for gid in option["keep"]:
                    offer = (view.get("private") or {}).get("goal_offer") or []
                    g = next((x for x in offer if x.get("id") == gid), None)
                    kept.append(goal_words(board, g) if g else w("w.kind.goal"))
                return w("w.vo.opt.goals", goals="; ".join(kept))
            if a == "character":
                return w("w.opt.character", name=board.character(str(option["character"])))
        except (KeyError, TypeError, ValueError, IndexError):
            pass
        return compact(option)

    def prompt_text(self, view: View) -> str | None:
        """The prompt's question from the view's structure (phase, your pending item), in the current language."""
        return dice_prompt_text(view, "vo")

    # ---- the board ------------------------------------------------------------------------

    def body(self, view: View) -> RenderableType:
        public = view.get("public") or {}
        if "track" not in public or "players" not in public:
            return super().body(view)
        parts: list[RenderableType] = [self.turn_line(view), self.asking(view)]
        parts.append(self.locations(view))
        parts.append(self.routes(view))
        parts.append(self.action_spaces(view))
        parts.append(self.contracts(view))
        parts.append(self.city_cards(view))
        parts.append(self.players(view))
        if view.get("private") is not None:
            parts.append(self.your_board(view))
        parts.append(self.log(view))
        return Group(*parts)

    def turn_line(self, view: View) -> Text:
        """Round, phase, whose turn, the start player and the dice left on the board."""
        public = view["public"]
        if public.get("phase") == "over" or view.get("result"):
            return Text(w("w.kh.over"), style="bold")
        phase = public.get("phase")
        text = Text(w("w.st.round", round=public.get("round", "?")) + "  ", style="bold")
        if phase == "play":
            turn = public.get("turn")
            text.append(seat_name(view, turn), style="bold reverse" if turn == view.get("you") else "bold")
            text.append(" " + w("w.kh.cli.toPlayDone" if public.get("main_done") else "w.kh.cli.toPlay"))
        elif phase == "start":
            text.append(w("w.vo.cli.start"))
        elif phase == "draft":
            text.append(w("w.vo.cli.draft"))
        elif phase == "goals":
            text.append(w("w.vo.cli.goals"))
        else:
            text.append(str(phase))
        text.append("  " + w("w.vo.cli.startPlayer", who=seat_name(view, public.get("start_player"))))
        text.append("  " + w("w.kh.cli.black", n=public.get("black_dice", "?")))
        return text

    def asking(self, view: View) -> Text:
        """What the pending choices are (public), one line each."""
        public = view["public"]
        board = Board(public)
        text = Text()
        for item in public.get("pending") or []:
            who = seat_name(view, item.get("seat"))
            kind = str(item.get("kind"))
            if kind == "dice":
                space = board.space(str(item.get("space")))
                what = w("w.vo.now.dice", who=who, space=space, n=len(item.get("picked") or []), need=item.get("need"))
            elif kind == "travel":
                what = w("w.vo.now.travel", who=who, steps=item.get("steps"), max=item.get("max"))
            elif kind == "column":
                what = w("w.vo.now.column", who=who, good=good_name(item.get("res")), max=item.get("max"))
            elif kind == "contracts":
                what = w("w.vo.now.contracts", who=who)
            elif kind == "comp":
                what = w("w.kh.now.comp", who=who, n=item.get("amount"))
            elif kind == "keep":
                what = w("w.vo.now.keep", who=who, words=contract_words(item.get("contract")))
            elif kind == "relocate":
                what = w("w.vo.now.relocate", who=who, city=board.name(item.get("city")))
            else:
                pend = w_or(f"w.vo.pend.{kind}", w_or(f"w.kh.pend.{kind}", w("w.kh.pend.any")))
                what = w("w.kh.now.other", who=who, what=pend)
            if text:
                text.append("\n")
            text.append(w("w.now") + " ", style="bold")
            text.append(what)
        return text

    def locations(self, view: View) -> Table:
        """The 25 locations: kind, bonus (city bonus, outpost bonus, Beijing spaces), posts and figures."""
        public = view["public"]
        board = Board(public)
        posts: dict[int, list[int]] = {}
        figures: dict[int, list[tuple[int, int]]] = {}
        for p in public.get("players") or []:
            s = int(p["seat"])
            for c in p.get("posts") or []:
                posts.setdefault(int(c), []).append(s)
            for f, loc in enumerate(p.get("figures") or []):
                figures.setdefault(int(loc), []).append((s, f))
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
            post_text = _join([Text(seat_name(view, s, you=False), style=_style(s)) for s in posts.get(nid, [])])
            if kind == "beijing":
                order = [int(s) for s in public.get("beijing") or []]
                post_text = _join(
                    [
                        Text(f"{seat_name(view, s, you=False)} ({board.beijing_vp[i]} VP)", style=_style(s))
                        for i, s in enumerate(order)
                        if i < len(board.beijing_vp)
                    ]
                )
            figs = []
            for s, f in figures.get(nid, []):
                many = len((public.get("players") or [])[s].get("figures") or []) > 1
                label = seat_name(view, s, you=False) + (f" #{f + 1}" if many else "")
                if s == view.get("you"):
                    label += "*"
                figs.append(Text(label, style=_style(s)))
            t.add_row(f"{nid:>2} {board.name(nid)}", kind_name(kind), bonus, post_text, _join(figs))
        return t

    def routes(self, view: View) -> Group:
        """The 30 routes with their extra costs (`free` when only the travel cost applies)."""
        board = Board(view["public"])
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

    def action_spaces(self, view: View) -> Group:
        """Every action space: what it gives, dice needed and the dice on it; then the bazaar table."""
        public = view["public"]
        board = Board(public)
        spaces = public.get("spaces") or {}
        t = Table(title=_("Action spaces"), title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
        t.add_column(_("space"))
        t.add_column(_("dice"), justify="right")
        t.add_column(_("gives"))
        t.add_column(_("dice placed (a shared blue space costs the lowest die in coins)"))
        rows = [
            ("coins", w("w.vo.b.coins")),
            *[(res, _("the bazaar column of the lowest die (below)")) for res in ("camels", "pepper", "silk", "gold")],
            ("contracts", _("1 or 2 contracts from the slots up to the die")),
            (
                "travel",
                _("up to the lowest die steps, paying {costs}").format(costs="/".join(str(x) for x in board.tiers[1:])),
            ),
        ]
        for space, gives in rows:
            placed = _join([placement_text(view, pl) for pl in spaces.get(space) or []], "; ")
            t.add_row(board.space(space), str(board.dice_needed(space)), gives, placed)
        khan = public.get("khan") or []
        ladder = Text()
        for i in range(4):
            if i:
                ladder.append(" ≤ ")
            ladder.append_text(placement_text(view, khan[i]) if i < len(khan) else Text(_("empty"), style="dim"))
        t.add_row(board.space("khan"), "1", _("2 camels + 1 good; each die ≥ the last"), ladder)
        bag = _join([placement_text(view, pl) for pl in public.get("bag") or []], "; ")
        t.add_row(w("w.kh.space.bag"), "1", _("3 coins (bonus action)"), bag)
        bazaar = Table(title=_("Bazaar by column"), title_justify="left", show_edge=False, pad_edge=False)
        bazaar.add_column(_("row"))
        for col in range(1, 7):
            bazaar.add_column(str(col))
        for res in ("camels", "pepper", "silk", "gold"):
            row = (board.bazaar.get(res) or {}).get("by_die") or []
            bazaar.add_row(_(res), *(bundle_words(r) for r in row))
        return Group(t, bazaar)

    def contracts(self, view: View) -> Text:
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

    def city_cards(self, view: View) -> Text:
        """The 9 city cards on the large cities, and who used each this round."""
        public = view["public"]
        board = Board(public)
        text = Text(_("City cards (one use per round, a post in the city needed)"), style="bold")
        for cc in public.get("city_cards") or []:
            card = cc.get("card") or {}
            text.append(f"\n  {board.name(cc.get('city'))}: {card_words(card)}")
            used = cc.get("used")
            if used:
                text.append("  " + _("used by") + " ")
                text.append_text(placement_text(view, used))
        return text

    def players(self, view: View) -> Group:
        """Each player's board: character, resources, VP, posts, dice; then everybody's contracts."""
        public = view["public"]
        board = Board(public)
        seats = view.get("seats") or []
        t = Table(title=_("Players"), title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
        numeric = (N_("coins"), N_("camels"), N_("pepper"), N_("silk"), N_("gold"), N_("VP"), N_("done"))
        for col in (
            "",
            N_("player"),
            N_("character"),
            *numeric[:6],
            N_("posts (left)"),
            N_("dice"),
            N_("done"),
            N_("online"),
        ):
            t.add_column(_(col) if col else col, justify="right" if col in numeric else "left")
        held = Text(_("Contracts held (at most 2 active)"), style="bold")
        for p in public.get("players") or []:
            s = int(p["seat"])
            connected = seats[s].get("connected") if s < len(seats) else None
            t.add_row(
                "▶" if s == public.get("turn") and not view.get("result") else "",
                Text(seat_name(view, s), style=_style(s)),
                board.character(p.get("character")),
                *(str(p.get(k, "?")) for k in ("coins", "camels", "pepper", "silk", "gold", "vp")),
                f"{len(p.get('posts') or [])} ({p.get('posts_left', '?')})",
                dice_text(p.get("dice"), s),
                str(p.get("completed", 0)),
                _("yes") if connected else _("no"),
            )
            held.append("\n  ")
            held.append(seat_name(view, s), style=_style(s))
            held.append(": ")
            active = p.get("contracts") or []
            held.append("; ".join(contract_words(c) for c in active) or _("none"))
        return Group(t, held)

    def your_board(self, view: View) -> Text:
        """The viewer's own character, goal cards (secret to others) and goal card offer."""
        public = view["public"]
        board = Board(public)
        private = view.get("private") or {}
        me = _me(view) or {}
        char = me.get("character")
        text = Text(_("Your board"), style="bold")
        if char:
            ability = board.ability(char)
            text.append("\n  " + _("Character: {name}: {ability}").format(name=board.character(char), ability=ability))
        posts = {int(c) for c in me.get("posts") or []}
        goals = private.get("goals") or []
        text.append("\n  " + _("Your goal cards (secret):") + " ")
        if not goals:
            text.append(_("none yet"), style="dim")
        for g in goals:
            text.append("\n    ")
            text.append(goal_words(board, g, posts))
        offer = private.get("goal_offer") or []
        if offer:
            text.append("\n  " + _("Goal cards offered (keep 2):") + " ")
            text.append("; ".join(goal_words(board, g) for g in offer))
        gone = private.get("goals_discarded") or []
        if gone:
            text.append("\n  " + _("Goal cards you discarded:") + " " + "; ".join(goal_words(board, g) for g in gone))
        return text

    def event(self, view: View, ev: dict[str, Any]) -> str:
        return event_words(view, ev)

    def log(self, view: View) -> Text:
        events = (view.get("public") or {}).get("log") or []
        text = Text(_("Recent events"), style="bold")
        if not events:
            text.append("\n  " + _("(nothing yet)"), style="dim")
        for ev in events[-LOG_SHOWN:]:
            text.append("\n  " + event_words(view, ev))
        return text

    def result(self, view: View) -> RenderableType:
        """Scores with the camel tie-break, then every seat's breakdown and kept goal cards."""
        res = view.get("result") or {}
        parts: list[RenderableType] = [result_table(view, tiebreak_label=N_("camels"))]
        breakdown = res.get("breakdown") or []
        if breakdown:
            t = Table(title=w("w.cli.finalScoring"), title_justify="left", title_style="bold", show_edge=False)
            t.add_column(w("w.bd.player"))
            items = [
                ("in_game", w("w.vo.bd.in_game")),
                ("goal_cards", w("w.vo.bd.goal_cards")),
                ("goal_cities", w("w.vo.bd.goal_cities")),
                ("coins", w("w.vo.bd.coins")),
                ("beijing", w("w.vo.bd.beijing")),
                ("goods", w("w.vo.bd.goods")),
                ("most_contracts", w("w.vo.bd.most_contracts")),
                ("all_posts", w("w.vo.bd.all_posts")),
                ("total", w("w.vo.bd.total")),
            ]
            for _, label in items:
                t.add_column(label, justify="right")
            for s, b in enumerate(breakdown):
                t.add_row(seat_name(view, s), *(str(b.get(k, 0)) for k, _ in items))
            parts.append(t)
        public = view.get("public") or {}
        board = Board(public)
        goals = Text()
        for p in public.get("players") or []:
            if p.get("goals"):
                posts = {int(c) for c in p.get("posts") or []}
                goals.append(w("w.cli.goalsOf", who=seat_name(view, p["seat"])) + " ")
                goals.append("; ".join(goal_words(board, g, posts) for g in p["goals"]) + "\n")
        if goals:
            parts.append(goals)
        return Group(*parts)


def goal_words(board: Board, g: dict[str, Any] | None, posts: set[int] | None = None) -> str:
    """A goal card: `Karakorum + Xian, 4 VP`, with the cities where the player has a post ticked."""
    if not g:
        return "?"
    names = []
    for c in g.get("cities") or []:
        mark = " ✓" if posts is not None and int(c) in posts else ""
        names.append(f"{board.name(c)}{mark}")
    return w("w.vo.goal", cities=" + ".join(names), vp=g.get("vp"))


def _me(view: View) -> dict[str, Any] | None:
    you = view.get("you")
    players = (view.get("public") or {}).get("players") or []
    return players[you] if isinstance(you, int) and 0 <= you < len(players) else None


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


def _card_data(public: dict[str, Any], card_id: str) -> dict[str, Any] | None:
    for cc in public.get("city_cards") or []:
        if (cc.get("card") or {}).get("id") == card_id:
            return cc["card"]  # type: ignore[no-any-return]
    return None


def _card_ways(public: dict[str, Any], card_id: str) -> list[dict[str, Any]]:
    card = _card_data(public, card_id) or {}
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
    kind = ev.get("ev")
    who = seat_name(view, ev.get("seat")) if "seat" in ev else ""

    def log(key: str, **params: Any) -> str:
        return w(f"w.vo.log.{key}", who=who, **params).rstrip(".")

    def common(key: str, **params: Any) -> str:
        return w(key, who=who, **params).rstrip(".")

    def die(k: Any, v: Any) -> str:
        return str(v) if k == "own" else f"{w(f'w.diekind.{k}')} {v}"

    try:
        if kind == "round":
            return log("round", round=ev["round"], first=seat_name(view, ev.get("start_player")))
        if kind == "roll":
            return log("roll", dice=", ".join("?" if int(v) == 0 else die(k, v) for k, v in ev["dice"]))
        if kind == "place":
            dice = ", ".join(die(k, v) if int(v) else w("w.vo.aDie") for k, v in ev["dice"])
            space = board.space(str(ev["space"]))
            if ev.get("fee"):
                return common("w.log.placeFee", dice=dice, space=space, fee=amount_words("coins", int(ev["fee"])))
            return common("w.log.place", dice=dice, space=space)
        if kind == "bazaar":
            row = (board.bazaar.get(ev["res"]) or {}).get("by_die") or []
            n = int(ev["column"])
            return log("bazaar", gain=bundle_words(row[n - 1]) if 0 < n <= len(row) else str(n))
        if kind == "take_contract":
            what = _contract_named(public, ev.get("contract"))
            if ev.get("discard"):
                return log("tookDiscard", what=what, old=_contract_named(public, ev.get("discard")))
            return common("w.log.took", what=what)
        if kind == "fulfil":
            return common("w.log.fulfilled", what=_contract_named(public, ev.get("contract")))
        if kind == "step":
            cost = [amount_words(k, int(ev[k])) for k in ("coins", "camels") if ev.get(k)]
            where = {"from": board.name(ev["from"]), "to": board.name(ev["to"])}
            return log("stepCost", cost=" + ".join(cost), **where) if cost else common("w.log.step", **where)
        if kind == "post":
            city = board.name(ev["city"])
            if ev.get("vp"):
                return common("w.kh.log.postVp", nth=ev.get("nth"), city=city, vp=ev["vp"])
            return common("w.kh.log.post", nth=ev.get("nth"), city=city)
        if kind == "outpost_bonus":
            return log("outpost", city=board.name(ev["city"]))
        if kind == "relocate":
            return common("w.log.relocate", **{"from": board.name(ev["from"]), "to": board.name(ev["to"])})
        if kind == "bag":
            k, v = ev["die"]
            return log("bag", die=die(k, v) if int(v) else w("w.vo.aDie"))
        if kind == "reroll":
            return common("w.log.reroll", **{"from": die(ev["kind"], ev["from"]), "to": ev["to"]})
        if kind == "adjust":
            return common(
                "w.log.adjust", **{"from": die(ev["kind"], ev["from"]), "to": int(ev["from"]) + int(ev["by"])}
            )
        if kind == "black_die":
            return common("w.log.blackDie", v=ev["value"])
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
        if kind == "end_turn":
            return common("w.log.endTurn")
        if kind == "character":
            return common("w.log.character", name=board.character(ev.get("character")))
        if kind == "goals_kept":
            return log("goalsKept")
        if kind == "final_scoring":
            scores = ", ".join(f"{seat_name(view, s)} {v}" for s, v in enumerate(ev.get("scores") or []))
            return w("w.log.final", scores=scores).rstrip(".")
    except (KeyError, TypeError, ValueError, IndexError):
        pass
    return compact({k: v for k, v in ev.items() if k != "n"})


RENDERER = register(VoyagesRenderer())
