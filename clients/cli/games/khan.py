"""Terminal renderer for Marco Polo II: In the Service of the Khan (game id `khan`).

Owns: drawing the view in words: the round and whose turn, what is being asked, the map as a list of the
locations (kind, shield, roles: contracts, city cards, markers, outpost bonus, special city; trading posts,
figures, caravans) and the routes with their costs and guild-seal gates, the action spaces with the dice on
them (books with their offer tiles, seals, travel, contracts, Khan's favor, the special cities, the city cards,
the money bag), the contracts in the contract cities, the city cards, every player's board (character,
resources, VP, dice, seals, contracts), the viewer's own goal cards, the recent log, the result with its
breakdown, and prompt options in words.
Must not: decide rules. It reads the view only (the constant board is under `public.board`).
"""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clients.cli.games.board import Words, dice_prompt_text, dice_text, die_words, my_pending, placement_text
from clients.cli.games.board import join_texts as _join
from clients.cli.games.board import seat_style as _style
from clients.cli.i18n import N_, _, w, w_or
from clients.cli.render import GameRenderer, Move, View, compact, register, result_table, seat_name

GOODS: tuple[str, ...] = ("pepper", "silk", "gold")
SPACES: tuple[str, ...] = (
    "book1", "book2", "book3a", "book3b", "seals", "travel1", "travel3", "travel6", "contracts", "khan", "bag", "black",
)  # fmt: skip
SPACE_DICE: dict[str, int] = {"seals": 2, "travel1": 1, "travel3": 2, "travel6": 3}
BOOK_PILE: dict[str, int] = {"book1": 0, "book2": 1, "book3a": 2, "book3b": 2}
LOG_SHOWN = 10


def space_name(space: str) -> str:
    return w(f"w.kh.space.{space}")


def space_gives(space: str) -> str:
    return w(f"w.kh.gives.{space}")


def seal_name(seal: str) -> str:
    """A guild seal by its name: `tailor's seal` (in the current language)."""
    return w_or(f"w.kh.seal.{seal}", f"{seal}'s seal")


def shield_name(shield: Any) -> str:
    return w_or(f"w.kh.shield.{shield}", str(shield))


def good_name(good: Any) -> str:
    return w_or(f"w.resname.{good}", str(good))


def bag_take(take: str) -> str:
    return w(f"w.kh.bag.{take}") if take in ("coins", "camels", "jade") else take


def cargo_how(how: str) -> str:
    return w(f"w.kh.cargo.{how}") if how in ("double", "upgrade", "vp") else how


# ---- words for the pieces ----------------------------------------------------------------------

WORDS = Words(
    own={
        "good": lambda n: w("w.res.goodChoice", n=n),
        "contract": lambda n: w("w.kh.res.contract"),
        "draw_contract": lambda n: w("w.kh.res.drawContract", n=n),
        "other_marker": lambda n: w("w.kh.res.otherMarker"),
    }
)
amount_words = WORDS.amount
bundle_words = WORDS.bundle
contract_words = WORDS.contract


def card_words(card: dict[str, Any] | None) -> str:
    """A city card's effect in words (amounts depend on the die placed on it)."""
    if not card:
        return "—"
    kind = card.get("kind")
    by = "/".join
    if kind == "per_pip":
        return w("w.card.perPip", reward=bundle_words(card.get("reward")))
    if kind == "by_die":
        return w("w.card.byDie", rewards=" / ".join(bundle_words(r) for r in card.get("rewards") or []))
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
        return w("w.card.cityBonus", times=by(str(t) for t in card.get("times_by_die") or []))
    if kind == "seal":
        return w("w.kh.card.seal", cost=bundle_words(card.get("cost")))
    if kind == "move":
        return w("w.card.move", steps=by(str(t) for t in card.get("steps_by_die") or []))
    if kind == "contract":
        return w("w.kh.card.contract", reward=bundle_words(card.get("reward_per_pip")))
    return compact(card)


def goal_words(g: dict[str, Any] | None) -> str:
    """A goal card by its icons: `farmer's seal improved: 4 VP, lion shield, ...`."""
    if not g:
        return "?"
    icons = []
    for i in g.get("icons") or []:
        if "seal" in i:
            icons.append(w("w.kh.goal.seal", seal=seal_name(str(i["seal"])), vp=i.get("vp")))
        else:
            icons.append(w("w.kh.goal.shield", shield=shield_name(i.get("shield"))))
    return ", ".join(icons) or "?"


def offer_words(o: dict[str, Any]) -> str:
    gain = bundle_words(o.get("gain"))
    return w("w.kh.offerJade", gain=gain, jade=o["jade"]) if o.get("jade") else gain


def tile_words(t: dict[str, Any] | None) -> str:
    """An offer tile's four offers."""
    if not t:
        return "—"
    return "; ".join(f"{i + 1}) {offer_words(o)}" for i, o in enumerate(t.get("offers") or []))


def caravan_shields(public: dict[str, Any], route: Any) -> str:
    """A caravan route by its shields (` lion – sun`), empty when unknown."""
    r = next((x for x in public.get("caravan_routes") or [] if x.get("id") == route), None)
    return f" {' – '.join(shield_name(x) for x in r.get('shields') or [])}" if r else ""


class Board:
    """Lookups into the constant board under `public.board`."""

    def __init__(self, public: dict[str, Any]) -> None:
        board = public.get("board") or {}
        self.nodes: dict[str, dict[str, Any]] = {str(n["id"]): n for n in board.get("nodes") or []}
        self.edges: list[dict[str, Any]] = list(board.get("edges") or [])
        self.card_slots: list[str] = list(board.get("card_slots") or [])
        self.contract_cities: list[str] = list(board.get("contract_cities") or [])
        self.marker_cities: list[str] = list(board.get("marker_cities") or [])
        self.outpost_cities: list[str] = list(board.get("outpost_cities") or [])
        self.special: dict[str, Any] = dict(board.get("special_cities") or {})
        self.seals: dict[str, Any] = dict(board.get("seals") or {})
        self.characters: dict[str, Any] = dict(board.get("characters") or {})
        self.shield_track: list[int] = list(board.get("shield_track") or [])

    def name(self, node: Any) -> str:
        n = self.nodes.get(str(node))
        return w_or(f"w.kh.node.{node}", str(n.get("name"))) if n else str(node)

    def kind(self, node: str) -> str:
        return str(self.nodes.get(node, {}).get("type", "?"))

    def character(self, cid: str | None) -> str:
        if not cid:
            return "—"
        return w_or(f"w.kh.char.{cid}", str((self.characters.get(cid) or {}).get("name") or cid))

    def ability(self, cid: str | None) -> str:
        return w_or(f"w.kh.ability.{cid}", str((self.characters.get(cid or "") or {}).get("ability", "")))

    def space(self, space: str) -> str:
        """An action space in words; a city-card space names its city, a special city its name."""
        if space in SPACES:
            return space_name(space)
        if space in self.special:
            return w("w.kh.specialCity", city=self.name(space))
        if space.startswith("slot-"):
            i = int(space.split("-")[1])
            if i < len(self.card_slots):
                return w("w.kh.cardAt", city=self.name(self.card_slots[i]))
            return w("w.kh.cardArea", n=i - len(self.card_slots) + 1)
        return space

    def route(self, a: Any, b: Any) -> dict[str, Any] | None:
        for e in self.edges:
            if {str(e["a"]), str(e["b"])} == {str(a), str(b)}:
                return e
        return None


def route_cost(e: dict[str, Any] | None) -> str:
    """A route's cost (and its gate): `2 coins + 1 camel, tailor's seal needed`."""
    if not e:
        return ""
    parts = [amount_words(k, int(e[k])) for k in ("coins", "camels", "jade") if e.get(k)]
    words = " + ".join(parts) or w("w.free")
    return w("w.kh.route.sealed", cost=words, seal=seal_name(str(e["seal"]))) if e.get("seal") else words


def _me(view: View) -> dict[str, Any] | None:
    you = view.get("you")
    players = (view.get("public") or {}).get("players") or []
    return players[you] if isinstance(you, int) and 0 <= you < len(players) else None


def _card_at(public: dict[str, Any], space: str) -> dict[str, Any] | None:
    for cc in public.get("city_cards") or []:
        if cc.get("space") == space:
            return cc.get("card")  # type: ignore[no-any-return]
    return None


def _card_by_id(public: dict[str, Any], card_id: str) -> dict[str, Any] | None:
    for cc in public.get("city_cards") or []:
        if (cc.get("card") or {}).get("id") == card_id:
            return cc["card"]  # type: ignore[no-any-return]
    return None


def _contract_named(public: dict[str, Any], cid: Any) -> str:
    """A contract by what it asks and gives, or `a contract` once it is no longer in the view."""
    c = _find_contract(public, str(cid))
    return w("w.contract.the", words=contract_words(c)) if c else w("w.kind.contract")


def _find_contract(public: dict[str, Any], cid: str) -> dict[str, Any] | None:
    for row in (public.get("contract_spaces") or {}).values():
        for c in row:
            if c and c.get("id") == cid:
                return c  # type: ignore[no-any-return]
    for p in public.get("players") or []:
        for c in p.get("contracts") or []:
            if c.get("id") == cid:
                return c  # type: ignore[no-any-return]
    for item in public.get("pending") or []:
        c = item.get("contract")
        if isinstance(c, dict) and c.get("id") == cid:
            return c
    return None


def _source_words(public: dict[str, Any], board: Board, label: str) -> str:
    kind, _, what = str(label).partition(":")
    if kind == "marker":
        m = (public.get("markers") or {}).get(what) or {}
        return w("w.kh.src.city", city=board.name(what), bonus=bundle_words(m.get("reward")))
    if kind == "special":
        return w(
            "w.kh.src.city", city=board.name(what), bonus=bundle_words((board.special.get(what) or {}).get("bonus"))
        )
    if kind == "seal":
        return w("w.kh.src.seal", seal=seal_name(what), bonus=bundle_words((board.seals.get(what) or {}).get("bonus")))
    return w("w.kh.src.character")


class KhanRenderer(GameRenderer):
    """Marco Polo II: map, action spaces, contracts, city cards, offers, players, your goals, log."""

    game = "khan"

    # ---- option labels --------------------------------------------------------------------

    def label(self, view: View, option: Move) -> str:  # noqa: C901
        """A prompt option in words (the browser's words, `clients/words/`): `Travel 3 (2 dice)`, `Move from …`."""
        public = view.get("public") or {}
        board = Board(public)
        a = option.get("a")
        me = _me(view) or {}
        pending = my_pending(view) or {}
        try:
            die = die_words(str(option.get("kind", "own")), int(option.get("value", 0) or 0))
            if a == "character":
                return w("w.opt.character", name=board.character(str(option["character"])))
            if a == "goal":
                private = view.get("private") or {}
                g = next((x for x in private.get("goal_offer") or [] if x.get("id") == option["keep"]), None)
                return w("w.kh.opt.goal", goal=goal_words(g)) if g else w("w.kh.opt.goalAny")
            if a == "space":
                space = str(option["space"])
                n = 1 if space == "seals" and me.get("character") == "dewu" else SPACE_DICE.get(space, 1)
                words = w("w.opt.space", space=board.space(space), dice=w("w.dice", n=n))
                card = _card_at(public, space)
                return f"{words}: {card_words(card)}" if card else words
            if a == "die":
                if pending.get("kind") == "dice":
                    return w("w.opt.dieOn", die=die, space=board.space(str(pending.get("space"))))
                return w("w.opt.die", die=die)
            if a == "cancel":
                return w("w.opt.cancel")
            if a == "fulfil":
                return w("w.opt.fulfil", contract=_contract_named(public, option["contract"]))
            if a == "improve":
                seal = board.seals.get(str(option["seal"])) or {}
                return w(
                    "w.kh.opt.improve", seal=seal_name(str(option["seal"])), cost=bundle_words(seal.get("improve"))
                )
            if a == "bag":
                return w("w.kh.opt.bag", die=die, take=bag_take(str(option["take"])))
            if a == "reroll":
                return w("w.opt.reroll", die=die)
            if a == "adjust":
                return w("w.opt.adjust", die=die, to=int(option["value"]) + int(option["by"]))
            if a == "black":
                if pending.get("kind") == "black_pick":
                    return w("w.kh.opt.blackPick", v=option["value"])
                return w("w.kh.opt.blackShowing", v=option["value"]) if option.get("value") else w("w.kh.opt.black")
            if a == "tile":
                reward = next((t.get("reward") for t in me.get("tiles") or [] if t.get("id") == option["tile"]), None)
                return w("w.kh.opt.tile", reward=bundle_words(reward)) if reward else w("w.kh.opt.tileAny")
            if a == "caravan":
                route = caravan_shields(public, option["route"]).strip() or "—"
                return w("w.kh.opt.caravan", route=route, city=board.name(option["start"]))
            if a == "deliver":
                return w("w.kh.opt.deliver")
            if a == "end":
                return w("w.opt.end")
            if a == "comp":
                coins = int(option["coins"])
                camels = int(pending.get("amount", coins)) - coins
                return w("w.opt.comp", coins=amount_words("coins", coins), camels=amount_words("camels", camels))
            if a == "pair":
                v = int(option["value"])
                gain = "jade" if v in (1, 6) else "silk" if v in (2, 5) else "gold"
                return w("w.kh.opt.pair", v=v, gain=amount_words(gain, 1))
            if a == "singles":
                return w("w.kh.opt.singles")
            if a == "double":
                return w("w.kh.opt.double", source=_source_words(public, board, str(option["source"])))
            if a == "marker":
                m = (public.get("markers") or {}).get(str(option["city"])) or {}
                return w("w.kh.opt.marker", city=board.name(option["city"]), bonus=bundle_words(m.get("reward")))
            if a == "good":
                return w("w.opt.good", good=amount_words(str(option["good"]), 1))
            if a == "offer":
                i = int(option["i"])
                tiles = public.get("offers") or []
                pile = BOOK_PILE.get(str(pending.get("space")), 0)
                offers = (tiles[pile] or {}).get("offers") or [] if pile < len(tiles) else []
                if i < len(offers):
                    return w("w.kh.opt.offer", n=i + 1, gain=offer_words(offers[i]))
                return w("w.kh.opt.offerN", n=i + 1)
            if a == "seal":
                jade = (board.seals.get(str(option["seal"])) or {}).get("jade")
                key = "w.kh.opt.sealJade" if jade else "w.kh.opt.seal"
                return w(key, seal=seal_name(str(option["seal"])), jade=jade)
            if a == "step":
                figs = me.get("figures") or []
                fig = int(option["fig"])
                here = figs[fig] if 0 <= fig < len(figs) else None
                key = "w.opt.stepFig" if len(figs) > 1 else "w.opt.step"
                words = w(key, fig=fig + 1, **{"from": board.name(here), "to": board.name(option["to"])})
                cost = route_cost(board.route(here, option["to"])) if here is not None else ""
                return f"{words} ({w('w.route', cost=cost)})" if cost else words
            if a == "stop":
                kind = str(pending.get("kind"))
                return (
                    w(f"w.kh.opt.stop.{kind}")
                    if kind in ("travel", "card", "load", "caravan_move")
                    else w("w.opt.stop")
                )
            if a == "post":
                return w("w.kh.opt.post", city=board.name(option["city"]))
            if a == "skip":
                return w("w.kh.opt.skip")
            if a == "oases":
                coins = int(option["coins"])
                camels = int(pending.get("n", coins)) - coins
                return w(
                    "w.kh.opt.oases", coins=amount_words("coins", 2 * coins), camels=amount_words("camels", camels)
                )
            if a == "relocate":
                return w("w.opt.relocate", city=board.name(option["from"]))
            if a == "take":
                words = w("w.opt.take", contract=_contract_named(public, option["contract"]))
                if "discard" in option:
                    return w("w.opt.takeDiscard", take=words, contract=_contract_named(public, option["discard"]))
                return words
            if a == "done":
                return w("w.opt.doneContracts")
            if a == "decline":
                return w("w.opt.decline")
            if a == "discard":
                cid = str(option["contract"])
                drawn = pending.get("contract") if isinstance(pending.get("contract"), dict) else {}
                if drawn and drawn.get("id") == cid:
                    return w("w.opt.discardNew", words=contract_words(drawn))
                return w("w.opt.discardOld", words=contract_words(_find_contract(public, cid)))
            if a == "times":
                n, way = int(option["n"]), int(option["way"])
                text = w("w.opt.times", n=n)
                card = _card_by_id(public, str(pending.get("card") or "")) or {}
                ways = card.get("ways") or []
                if card.get("kind") == "either" and 0 <= way < len(ways):
                    cost, reward = bundle_words(ways[way].get("cost")), bundle_words(ways[way].get("reward"))
                    text += f" ({w('w.card.way', cost=cost, reward=reward)})"
                return text
            if a == "city":
                bonus = _source_words(public, board, self._bonus_label(board, option["city"]))
                return w("w.opt.takeBonus", bonus=bonus)
            if a == "load":
                return w("w.kh.opt.load", good=amount_words(str(option["good"]), 1))
            if a == "haul":
                return w("w.kh.opt.haul", city=board.name(option["to"]))
            if a == "cargo":
                good = (pending.get("goods") or ["?"])[0]
                return w("w.kh.opt.cargo", good=w_or(f"w.resname.{good}", str(good)), how=cargo_how(str(option["how"])))
        except (KeyError, TypeError, ValueError, IndexError):
            pass
        return compact(option)

    def prompt_text(self, view: View) -> str | None:
        """The prompt's question from the view's structure (phase, your pending item), in the current language."""
        return dice_prompt_text(view, "kh")

    @staticmethod
    def _bonus_label(board: Board, city: Any) -> str:
        return f"special:{city}" if str(city) in board.special else f"marker:{city}"

    # ---- the board ------------------------------------------------------------------------

    def body(self, view: View) -> RenderableType:
        public = view.get("public") or {}
        if "board" not in public or "players" not in public:
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
            text.append(w("w.kh.cli.start"))
        elif phase == "draft":
            order = (public.get("draft") or {}).get("order") or []
            text.append(w("w.kh.cli.draft", who=seat_name(view, order[0]) if order else "?"))
        elif phase == "goals":
            text.append(w("w.kh.cli.goals"))
        else:
            text.append(str(phase))
        text.append("  " + w("w.kh.cli.first", who=seat_name(view, public.get("first"))))
        text.append("  " + w("w.kh.cli.black", n=len(public.get("black_dice") or [])))
        return text

    def asking(self, view: View) -> Text:
        public = view["public"]
        board = Board(public)
        text = Text()
        draft = public.get("draft")
        if draft and draft.get("offer"):
            text.append(w("w.charsOffered") + ": ", style="bold")
            text.append(", ".join(board.character(c) for c in draft["offer"]))
        for item in public.get("pending") or []:
            who = seat_name(view, item.get("seat"))
            kind = str(item.get("kind"))
            space = board.space(str(item.get("space")))
            if kind == "dice":
                what = w("w.kh.now.dice", who=who, space=space, n=len(item.get("picked") or []))
            elif kind == "travel":
                what = w("w.kh.now.travel", who=who, steps=item.get("steps"), max=item.get("max"))
            elif kind == "contracts":
                what = w("w.kh.now.contracts", who=who, n=len(item.get("taken") or []))
            elif kind == "comp":
                what = w("w.kh.now.comp", who=who, n=item.get("amount"))
            elif kind == "goal":
                what = w("w.kh.now.goal", who=who)
            elif kind == "offer":
                what = w("w.kh.now.offer", who=who, space=space)
            else:
                what = w("w.kh.now.other", who=who, what=w_or(f"w.kh.pend.{kind}", w("w.kh.pend.any")))
            if text:
                text.append("\n")
            text.append(w("w.now") + " ", style="bold")
            text.append(what)
        return text

    def locations(self, view: View) -> Table:
        public = view["public"]
        board = Board(public)
        posts: dict[str, list[int]] = {}
        figures: dict[str, list[tuple[int, int]]] = {}
        caravans: dict[str, list[int]] = {}
        for p in public.get("players") or []:
            s = int(p["seat"])
            for c in p.get("posts") or []:
                posts.setdefault(str(c), []).append(s)
            for f, loc in enumerate(p.get("figures") or []):
                figures.setdefault(str(loc), []).append((s, f))
            if p.get("caravan"):
                caravans.setdefault(str(p["caravan"].get("at")), []).append(s)
        t = Table(title=_("Map: locations"), title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
        for col in (_("location"), _("kind"), _("shield"), _("features"), _("trading posts"), _("figures")):
            t.add_column(col)
        markers = public.get("markers") or {}
        outposts = public.get("outposts") or {}
        for nid, node in board.nodes.items():
            feats = []
            if nid in board.contract_cities:
                feats.append(w("w.kh.map.contracts"))
            feats.extend(w("w.kh.map.cityCard") for c in board.card_slots if c == nid)
            if nid in markers:
                feats.append(w("w.kh.map.bonus", bonus=bundle_words((markers[nid] or {}).get("reward"))))
            if nid in board.outpost_cities:
                tile = outposts.get(nid)
                first = w("w.kh.map.firstPost", bonus=bundle_words(tile.get("reward"))) if tile else None
                feats.append(first or w("w.kh.map.outpostTaken"))
            if nid in board.special:
                sp = board.special[nid]
                feats.append(w("w.kh.map.special", bonus=bundle_words(sp.get("reward"))))
                feats.append(w("w.kh.map.bonus", bonus=bundle_words(sp.get("bonus"))))
            post_text = _join([Text(seat_name(view, s, you=False), style=_style(s)) for s in posts.get(nid, [])])
            figs = []
            for s, f in figures.get(nid, []):
                many = len((public.get("players") or [])[s].get("figures") or []) > 1
                label = seat_name(view, s, you=False) + (f" #{f + 1}" if many else "")
                if s == view.get("you"):
                    label += "*"
                figs.append(Text(label, style=_style(s)))
            for s in caravans.get(nid, []):
                figs.append(Text(_("{who}'s caravan").format(who=seat_name(view, s, you=False)), style=_style(s)))
            kind = str(node.get("type"))
            t.add_row(
                board.name(nid),
                w_or(f"w.kh.kind.{kind}", kind) if kind != "start" else w("w.kh.map.start"),
                shield_name(node.get("shield")) if node.get("shield") else "",
                "; ".join(feats),
                post_text,
                _join(figs),
            )
        return t

    def routes(self, view: View) -> Group:
        board = Board(view["public"])
        items = [f"{board.name(e['a'])} – {board.name(e['b'])}: {route_cost(e)}" for e in board.edges]
        head = Text(_("Map: {n} routes").format(n=len(items)), style="bold")
        head.append(
            "  " + _("(costs to pay for each route moved along; jade pays for missing coins and camels)"), style="dim"
        )
        return Group(head, Columns(items, padding=(0, 3), column_first=True))

    def action_spaces(self, view: View) -> Group:
        public = view["public"]
        board = Board(public)
        spaces = public.get("spaces") or {}
        t = Table(title=_("Action spaces"), title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
        t.add_column(_("space"))
        t.add_column(_("dice"), justify="right")
        t.add_column(_("gives"))
        t.add_column(_("dice placed (a taken blue space costs the lowest die in coins)"))
        for space in ("book1", "book2", "book3a", "book3b", "seals", "travel1", "travel3", "travel6", "contracts"):
            placed = _join([placement_text(view, pl) for pl in spaces.get(space) or []], "; ")
            t.add_row(space_name(space), str(SPACE_DICE.get(space, 1)), space_gives(space), placed)
        khan = public.get("khan") or []
        ladder = Text()
        for i in range(4):
            if i:
                ladder.append(" ≤ ")
            ladder.append_text(placement_text(view, khan[i]) if i < len(khan) else Text(_("empty"), style="dim"))
        t.add_row(space_name("khan"), "1", space_gives("khan"), ladder)
        special = public.get("special") or {}
        for city, sp in board.special.items():
            placed = _join([placement_text(view, pl) for pl in special.get(city) or []], "; ")
            gives = w("w.kh.specialGives", reward=bundle_words(sp.get("reward")), seal=seal_name(str(sp.get("seal"))))
            t.add_row(board.name(city), "1", gives, placed)
        for cc in public.get("city_cards") or []:
            used = cc.get("used")
            placed = placement_text(view, used) if isinstance(used, dict) else Text("")
            where = board.space(str(cc.get("space")))
            t.add_row(where[0].upper() + where[1:], "1", card_words(cc.get("card")), placed)
        bag = _join([placement_text(view, pl) for pl in public.get("bag") or []], "; ")
        t.add_row(space_name("bag"), "1", space_gives("bag"), bag)
        offers = Text(_("Offer tiles on the books"), style="bold")
        nexts = public.get("next_offers") or []
        for i, tile in enumerate(public.get("offers") or []):
            book = space_name(("book1", "book2", "book3a")[i]) if i < 3 else _("book {n}").format(n=i)
            offers.append(f"\n  {book}: {tile_words(tile)}")
            if i < len(nexts) and nexts[i]:
                offers.append("  " + _("(next: {tile})").format(tile=tile_words(nexts[i])), style="dim")
        return Group(t, offers)

    def contracts(self, view: View) -> Text:
        public = view["public"]
        board = Board(public)
        text = Text(w("w.kh.citiesLabel"), style="bold")
        for city, row in (public.get("contract_spaces") or {}).items():
            text.append(f"\n  {board.name(city)}: ")
            text.append("; ".join(contract_words(c) if c else _("empty") for c in row) or _("empty"))
        text.append("\n  " + _("Contract pile: {n}.").format(n=public.get("pile", 0)), style="dim")
        return text

    def city_cards(self, view: View) -> Text:
        public = view["public"]
        board = Board(public)
        text = Text(_("City cards (a die on a card by a city needs your post there)"), style="bold")
        for cc in public.get("city_cards") or []:
            card = cc.get("card") or {}
            where = board.name(cc["city"]) if cc.get("city") else _("action area")
            text.append(f"\n  {where}: {card_words(card)}")
            if cc.get("used"):
                text.append("  " + _("(taken)"), style="dim")
        text.append("\n  " + _("City card deck: {n}.").format(n=public.get("deck", 0)), style="dim")
        routes = public.get("caravan_routes") or []
        if (public.get("options") or {}).get("caravans"):
            text.append("\n" + _("Caravan routes:") + " ", style="bold")
            text.append(", ".join(" – ".join(r.get("shields") or []) for r in routes) or _("none"))
        return text

    def players(self, view: View) -> Group:
        public = view["public"]
        board = Board(public)
        seats = view.get("seats") or []
        t = Table(title=_("Players"), title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
        numeric = (N_("coins"), N_("camels"), N_("pepper"), N_("silk"), N_("gold"), N_("jade"), N_("VP"))
        for col in (
            "",
            N_("player"),
            N_("character"),
            *numeric,
            N_("posts (left)"),
            N_("dice"),
            N_("done"),
            N_("online"),
        ):
            t.add_column(_(col) if col else col, justify="right" if col in numeric or col == "done" else "left")
        held = Text(_("Seals, contracts, tiles and caravans"), style="bold")
        for p in public.get("players") or []:
            s = int(p["seat"])
            connected = seats[s].get("connected") if s < len(seats) else None
            t.add_row(
                "▶" if s == public.get("turn") and not view.get("result") else "",
                Text(seat_name(view, s), style=_style(s)),
                board.character(p.get("character")),
                *(str(p.get(k, "?")) for k in ("coins", "camels", "pepper", "silk", "gold", "jade", "vp")),
                f"{len(p.get('posts') or [])} ({p.get('posts_left', '?')})",
                dice_text(p.get("dice"), s),
                str(p.get("completed", 0)),
                _("yes") if connected else _("no"),
            )
            held.append("\n  ")
            held.append(seat_name(view, s), style=_style(s))
            seals = p.get("seals") or {}
            held.append(": " + _("seals") + " " + (", ".join(f"{k} ({v})" for k, v in seals.items()) or _("none")))
            active = p.get("contracts") or []
            held.append("; " + _("contracts") + " " + ("; ".join(contract_words(c) for c in active) or _("none")))
            if p.get("tiles"):
                held.append(
                    "; " + _("outpost tiles") + " " + ", ".join(bundle_words(x.get("reward")) for x in p["tiles"])
                )
            car = p.get("caravan")
            if car:
                held.append(
                    "; "
                    + w(
                        "w.kh.caravanAt",
                        route=caravan_shields(public, car.get("route")),
                        city=board.name(car.get("at")),
                        goods=", ".join(car.get("goods") or []) or _("nothing"),
                    )
                )
            held.append("; " + _("goal cards {n}").format(n=p.get("goal_cards", 0)))
        return Group(t, held)

    def your_board(self, view: View) -> Text:
        public = view["public"]
        board = Board(public)
        private = view.get("private") or {}
        me = _me(view) or {}
        text = Text(_("Your board"), style="bold")
        char = me.get("character")
        if char:
            ability = board.ability(char)
            text.append("\n  " + _("Character: {name}: {ability}").format(name=board.character(char), ability=ability))
        text.append("\n  " + _("Your goal cards (secret):") + " ")
        goals = private.get("goals") or []
        if not goals:
            text.append(_("none yet"), style="dim")
        for g in goals:
            text.append("\n    " + goal_words(g))
        offer = private.get("goal_offer") or []
        if offer:
            text.append("\n  " + _("Goal cards offered (keep 1):") + " " + "; ".join(goal_words(g) for g in offer))
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
        res = view.get("result") or {}
        parts: list[RenderableType] = [result_table(view, tiebreak_label=N_("camels"))]
        breakdown = res.get("breakdown") or []
        if breakdown:
            t = Table(title=w("w.cli.finalScoring"), title_justify="left", title_style="bold", show_edge=False)
            t.add_column(w("w.bd.player"))
            items = [
                ("in_game", w("w.kh.bd.in_game")),
                ("goal_seals", w("w.kh.bd.goal_seals")),
                ("shields", w("w.kh.bd.shields")),
                ("shield_count", w("w.cli.count")),
                ("goods", w("w.kh.bd.goods")),
                ("coins", w("w.kh.bd.coins")),
                ("contracts", w("w.kh.bd.contracts")),
                ("caravan", w("w.kh.bd.caravan")),
                ("total", w("w.kh.bd.total")),
            ]
            for _, label in items:
                t.add_column(label, justify="right")
            for s, b in enumerate(breakdown):
                t.add_row(seat_name(view, s), *(str(b.get(k, 0)) for k, _ in items))
            parts.append(t)
        goals = Text()
        for p in (view.get("public") or {}).get("players") or []:
            if p.get("goals"):
                goals.append(w("w.cli.goalsOf", who=seat_name(view, p["seat"])) + " ")
                goals.append("; ".join(goal_words(g) for g in p["goals"]) + "\n")
        if goals:
            parts.append(goals)
        return Group(*parts)


def event_words(view: View, ev: dict[str, Any]) -> str:  # noqa: C901
    """One log event in words, as the browser says it (compact JSON for an event this client does not know)."""
    public = view.get("public") or {}
    board = Board(public)
    kind = ev.get("ev")
    who = seat_name(view, ev.get("seat")) if "seat" in ev else ""

    def log(key: str, **params: Any) -> str:
        return w(f"w.kh.log.{key}", who=who, **params).rstrip(".")

    def common(key: str, **params: Any) -> str:
        return w(f"w.log.{key}", who=who, **params).rstrip(".")

    try:
        if kind == "round":
            return common("round", round=ev["round"], first=seat_name(view, ev.get("first")))
        if kind == "roll":
            dice = " ".join(f"{v}{'' if k == 'own' else w(f'w.diekind.{k}')[0]}" for k, v in ev["dice"])
            return common("roll", dice=dice)
        if kind == "character":
            return common("character", name=board.character(ev.get("character")))
        if kind == "goal_kept":
            return log("goalKept")
        if kind == "compensation":
            return log("compensation", coins=amount_words("coins", int(ev["coins"])))
        if kind == "double":
            return log("double", source=_source_words(public, board, str(ev["source"])))
        if kind == "place":
            dice = ", ".join(str(v) if k == "own" else f"{w(f'w.diekind.{k}')} {v}" for k, v in ev["dice"])
            space = board.space(str(ev["space"]))
            if ev.get("fee"):
                return common("placeFee", dice=dice, space=space, fee=amount_words("coins", int(ev["fee"])))
            return common("place", dice=dice, space=space)
        if kind == "offer":
            return log("offer", n=int(ev["i"]) + 1, space=board.space(str(ev["space"])))
        if kind == "seal":
            return log("seal", seal=seal_name(str(ev["seal"])))
        if kind == "improve":
            return log("improve", seal=seal_name(str(ev["seal"])))
        if kind == "step":
            return common("step", **{"from": board.name(ev["from"]), "to": board.name(ev["to"])})
        if kind == "post":
            city = board.name(ev["city"])
            return (
                log("postVp", nth=ev.get("nth"), city=city, vp=ev["vp"])
                if ev.get("vp")
                else log("post", nth=ev.get("nth"), city=city)
            )
        if kind == "outpost":
            return log("outpost", city=board.name(ev["city"]))
        if kind == "relocate":
            return common("relocate", **{"from": board.name(ev["from"]), "to": board.name(ev["to"])})
        if kind == "take_contract":
            return common("took", what=_contract_named(public, ev.get("contract")))
        if kind == "draw_contract":
            return log("drawContract")
        if kind == "discard":
            return common("discarded", what=_contract_named(public, ev.get("contract")))
        if kind == "fulfil":
            return common("fulfilled", what=_contract_named(public, ev.get("contract")))
        if kind == "bag":
            return log("bag", take=bag_take(str(ev["take"])))
        if kind == "reroll":
            return common("reroll", **{"from": ev["from"], "to": ev["to"]})
        if kind == "adjust":
            return common("adjust", **{"from": ev["from"], "to": int(ev["from"]) + int(ev["by"])})
        if kind == "black_die":
            return common("blackDie", v=ev["value"])
        if kind == "tile":
            return log("tile")
        if kind == "caravan":
            return log("caravan", route=caravan_shields(public, ev.get("route")), city=board.name(ev["at"]))
        if kind == "deliver":
            return log("deliver", goods=", ".join(good_name(g) for g in ev.get("goods") or []) or w("w.empty"))
        if kind == "card_times":
            return common("cardTimes", n=int(ev["n"]))
        if kind == "end_turn":
            return common("endTurn")
        if kind == "final_scoring":
            scores = ", ".join(f"{seat_name(view, s)} {v}" for s, v in enumerate(ev.get("scores") or []))
            return w("w.log.final", scores=scores).rstrip(".")
    except (KeyError, TypeError, ValueError, IndexError):
        pass
    return compact({k: v for k, v in ev.items() if k != "n"})


RENDERER = register(KhanRenderer())
