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
from rich.console import Group
from rich.table import Table
from rich.text import Text

from clients.cli.games import board as shared
from clients.cli.i18n import N_, _, w, w_or
from clients.cli.render import Move, View, register, seat_name

GOODS: tuple[str, ...] = ("pepper", "silk", "gold")
SPACES: tuple[str, ...] = (
    "book1", "book2", "book3a", "book3b", "seals", "travel1", "travel3", "travel6", "contracts", "khan", "bag", "black",
)  # fmt: skip
SPACE_DICE: dict[str, int] = {"seals": 2, "travel1": 1, "travel3": 2, "travel6": 3}
BOOK_PILE: dict[str, int] = {"book1": 0, "book2": 1, "book3a": 2, "book3b": 2}


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

WORDS = shared.Words(
    own={
        "good": lambda n: w("w.res.goodChoice", n=n),
        "contract": lambda n: w("w.kh.res.contract"),
        "draw_contract": lambda n: w("w.kh.res.drawContract", n=n),
        "other_marker": lambda n: w("w.kh.res.otherMarker"),
    },
    cards=lambda card: _own_card(card),
)
amount_words, bundle_words, contract_words, card_words = WORDS.amount, WORDS.bundle, WORDS.contract, WORDS.card


def _own_card(card: dict[str, Any]) -> str | None:
    kind = card.get("kind")
    by = "/".join
    if kind == "by_die":
        return w("w.card.byDie", rewards=" / ".join(bundle_words(r) for r in card.get("rewards") or []))
    if kind == "city_bonus":
        return w("w.card.cityBonus", times=by(str(t) for t in card.get("times_by_die") or []))
    if kind == "seal":
        return w("w.kh.card.seal", cost=bundle_words(card.get("cost")))
    if kind == "move":
        return w("w.card.move", steps=by(str(t) for t in card.get("steps_by_die") or []))
    if kind == "contract":
        return w("w.kh.card.contract", reward=bundle_words(card.get("reward_per_pip")))
    return None


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


class Board(shared.CharacterBoard):
    """Lookups into the constant board under `public.board`."""

    prefix = "kh"

    def __init__(self, public: dict[str, Any]) -> None:
        board = public.get("board") or {}
        super().__init__(board)
        self.nodes: dict[str, dict[str, Any]] = {str(n["id"]): n for n in board.get("nodes") or []}
        self.card_slots: list[str] = list(board.get("card_slots") or [])
        self.contract_cities: list[str] = list(board.get("contract_cities") or [])
        self.marker_cities: list[str] = list(board.get("marker_cities") or [])
        self.outpost_cities: list[str] = list(board.get("outpost_cities") or [])
        self.special: dict[str, Any] = dict(board.get("special_cities") or {})
        self.seals: dict[str, Any] = dict(board.get("seals") or {})
        self.shield_track: list[int] = list(board.get("shield_track") or [])

    def name(self, node: Any) -> str:
        n = self.nodes.get(str(node))
        return w_or(f"w.kh.node.{node}", str(n.get("name"))) if n else str(node)

    def kind(self, node: str) -> str:
        return str(self.nodes.get(node, {}).get("type", "?"))

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


def _card_at(public: dict[str, Any], space: str) -> dict[str, Any] | None:
    for cc in public.get("city_cards") or []:
        if cc.get("space") == space:
            return cc.get("card")  # type: ignore[no-any-return]
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
    kind, _sep, what = str(label).partition(":")
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


class KhanRenderer(shared.DiceRenderer):
    """Marco Polo II: map, action spaces, contracts, city cards, offers, players, your goals, log."""

    game = "khan"
    prefix = "kh"
    board_key = "board"
    board_class = Board
    words = WORDS
    resources = ("coins", "camels", "pepper", "silk", "gold", "jade", "vp")
    cards_title = N_("City cards (a die on a card by a city needs your post there)")
    held_title = N_("Seals, contracts, tiles and caravans")
    breakdown = ("in_game", "goal_seals", "shields", "shield_count", "goods", "coins", "contracts", "caravan", "total")
    breakdown_labels = {"shield_count": "w.cli.count"}  # noqa: RUF012
    stop_kinds = ("travel", "card", "load", "caravan_move")

    def contract_named(self, public: dict[str, Any], cid: Any) -> str:
        return _contract_named(public, cid)

    # ---- option labels --------------------------------------------------------------------

    def own_label(  # noqa: C901
        self, view: View, option: Move, board: Board, me: dict[str, Any], pending: dict[str, Any]
    ) -> str | None:
        """An option of Marco Polo II in words (the browser's words, `clients/words/`): `Travel 3 (2 dice)`, …."""
        public = view.get("public") or {}
        a = option.get("a")
        if a == "goal":
            private = view.get("private") or {}
            g = next((x for x in private.get("goal_offer") or [] if x.get("id") == option["keep"]), None)
            return w("w.kh.opt.goal", goal=goal_words(g)) if g else w("w.kh.opt.goalAny")
        if a == "improve":
            seal = board.seals.get(str(option["seal"])) or {}
            return w("w.kh.opt.improve", seal=seal_name(str(option["seal"])), cost=bundle_words(seal.get("improve")))
        if a == "bag":
            return w("w.kh.opt.bag", die=shared.option_die(option), take=bag_take(str(option["take"])))
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
        if a == "post":
            return w("w.kh.opt.post", city=board.name(option["city"]))
        if a == "skip":
            return w("w.kh.opt.skip")
        if a == "oases":
            coins = int(option["coins"])
            camels = int(pending.get("n", coins)) - coins
            return w("w.kh.opt.oases", coins=amount_words("coins", 2 * coins), camels=amount_words("camels", camels))
        if a == "take":
            words = w("w.opt.take", contract=_contract_named(public, option["contract"]))
            if "discard" in option:
                return w("w.opt.takeDiscard", take=words, contract=_contract_named(public, option["discard"]))
            return words
        if a == "decline":
            return w("w.opt.decline")
        if a == "discard":
            cid = str(option["contract"])
            drawn = pending.get("contract") if isinstance(pending.get("contract"), dict) else {}
            if drawn and drawn.get("id") == cid:
                return w("w.opt.discardNew", words=contract_words(drawn))
            return w("w.opt.discardOld", words=contract_words(_find_contract(public, cid)))
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
        return None

    def space_label(self, view: View, option: Move, board: Board, me: dict[str, Any]) -> str:
        space = str(option["space"])
        n = 1 if space == "seals" and me.get("character") == "dewu" else SPACE_DICE.get(space, 1)
        words = w("w.opt.space", space=board.space(space), dice=w("w.dice", n=n))
        card = _card_at(view.get("public") or {}, space)
        return f"{words}: {card_words(card)}" if card else words

    def route_cost(self, board: Board, here: Any, to: Any) -> str:
        return route_cost(board.route(here, to))

    def card_way(self, public: dict[str, Any], card_id: str, way: int) -> dict[str, Any] | None:
        card = shared.city_card(public, card_id) or {}
        ways = card.get("ways") or []
        return ways[way] if card.get("kind") == "either" and 0 <= way < len(ways) else None

    @staticmethod
    def _bonus_label(board: Board, city: Any) -> str:
        return f"special:{city}" if str(city) in board.special else f"marker:{city}"

    # ---- the board ------------------------------------------------------------------------

    def phase_words(self, view: View, phase: Any) -> str:
        if phase == "start":
            return w("w.kh.cli.start")
        if phase == "draft":
            order = (view["public"].get("draft") or {}).get("order") or []
            return w("w.kh.cli.draft", who=seat_name(view, order[0]) if order else "?")
        if phase == "goals":
            return w("w.kh.cli.goals")
        return str(phase)

    def turn_tail(self, view: View) -> tuple[str, str]:
        public = view["public"]
        first = w("w.kh.cli.first", who=seat_name(view, public.get("first")))
        return first, w("w.kh.cli.black", n=len(public.get("black_dice") or []))

    def pending_words(self, view: View, board: Board, item: dict[str, Any], who: str) -> str | None:
        kind = str(item.get("kind"))
        space = board.space(str(item.get("space")))
        if kind == "dice":
            return w("w.kh.now.dice", who=who, space=space, n=len(item.get("picked") or []))
        if kind == "contracts":
            return w("w.kh.now.contracts", who=who, n=len(item.get("taken") or []))
        if kind == "goal":
            return w("w.kh.now.goal", who=who)
        if kind == "offer":
            return w("w.kh.now.offer", who=who, space=space)
        return None

    def locations(self, view: View, board: Board) -> Table:
        public = view["public"]
        posts, figures = shared.pieces_at(public, str)
        caravans: dict[str, list[int]] = {}
        for p in public.get("players") or []:
            if p.get("caravan"):
                caravans.setdefault(str(p["caravan"].get("at")), []).append(int(p["seat"]))
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
            post_text = shared.join_texts(
                [Text(seat_name(view, s, you=False), style=shared.seat_style(s)) for s in posts.get(nid, [])]
            )
            figs = shared.figure_texts(view, figures.get(nid, []))
            for s in caravans.get(nid, []):
                caravan = _("{who}'s caravan").format(who=seat_name(view, s, you=False))
                figs.append(Text(caravan, style=shared.seat_style(s)))
            kind = str(node.get("type"))
            t.add_row(
                board.name(nid),
                w_or(f"w.kh.kind.{kind}", kind) if kind != "start" else w("w.kh.map.start"),
                shield_name(node.get("shield")) if node.get("shield") else "",
                "; ".join(feats),
                post_text,
                shared.join_texts(figs),
            )
        return t

    def routes(self, view: View, board: Board) -> Group:
        items = [f"{board.name(e['a'])} – {board.name(e['b'])}: {route_cost(e)}" for e in board.edges]
        head = Text(_("Map: {n} routes").format(n=len(items)), style="bold")
        head.append(
            "  " + _("(costs to pay for each route moved along; jade pays for missing coins and camels)"), style="dim"
        )
        return Group(head, Columns(items, padding=(0, 3), column_first=True))

    def action_spaces(self, view: View, board: Board) -> Group:
        public = view["public"]
        spaces = public.get("spaces") or {}
        t = shared.spaces_table(N_("dice placed (a taken blue space costs the lowest die in coins)"))
        for space in ("book1", "book2", "book3a", "book3b", "seals", "travel1", "travel3", "travel6", "contracts"):
            t.add_row(
                space_name(space),
                str(SPACE_DICE.get(space, 1)),
                space_gives(space),
                shared.placements_text(view, spaces.get(space)),
            )
        t.add_row(space_name("khan"), "1", space_gives("khan"), shared.khan_ladder(view, public.get("khan")))
        special = public.get("special") or {}
        for city, sp in board.special.items():
            gives = w("w.kh.specialGives", reward=bundle_words(sp.get("reward")), seal=seal_name(str(sp.get("seal"))))
            t.add_row(board.name(city), "1", gives, shared.placements_text(view, special.get(city)))
        for cc in public.get("city_cards") or []:
            used = cc.get("used")
            placed = shared.placement_text(view, used) if isinstance(used, dict) else Text("")
            where = board.space(str(cc.get("space")))
            t.add_row(where[0].upper() + where[1:], "1", card_words(cc.get("card")), placed)
        t.add_row(space_name("bag"), "1", space_gives("bag"), shared.placements_text(view, public.get("bag")))
        offers = Text(_("Offer tiles on the books"), style="bold")
        nexts = public.get("next_offers") or []
        for i, tile in enumerate(public.get("offers") or []):
            book = space_name(("book1", "book2", "book3a")[i]) if i < 3 else _("book {n}").format(n=i)
            offers.append(f"\n  {book}: {tile_words(tile)}")
            if i < len(nexts) and nexts[i]:
                offers.append("  " + _("(next: {tile})").format(tile=tile_words(nexts[i])), style="dim")
        return Group(t, offers)

    def contracts(self, view: View, board: Board) -> Text:
        public = view["public"]
        text = Text(w("w.kh.citiesLabel"), style="bold")
        for city, row in (public.get("contract_spaces") or {}).items():
            text.append(f"\n  {board.name(city)}: ")
            text.append("; ".join(contract_words(c) if c else _("empty") for c in row) or _("empty"))
        text.append("\n  " + _("Contract pile: {n}.").format(n=public.get("pile", 0)), style="dim")
        return text

    def card_place(self, board: Board, cc: dict[str, Any]) -> str:
        return board.name(cc["city"]) if cc.get("city") else _("action area")

    def card_used(self, view: View, cc: dict[str, Any], text: Text) -> None:
        if cc.get("used"):
            text.append("  " + _("(taken)"), style="dim")

    def city_cards_more(self, view: View, text: Text) -> None:
        public = view["public"]
        text.append("\n  " + _("City card deck: {n}.").format(n=public.get("deck", 0)), style="dim")
        routes = public.get("caravan_routes") or []
        if (public.get("options") or {}).get("caravans"):
            text.append("\n" + _("Caravan routes:") + " ", style="bold")
            text.append(", ".join(" – ".join(r.get("shields") or []) for r in routes) or _("none"))

    def held_words(self, view: View, board: Board, p: dict[str, Any]) -> str:
        public = view["public"]
        seals = p.get("seals") or {}
        words = ": " + _("seals") + " " + (", ".join(f"{k} ({v})" for k, v in seals.items()) or _("none"))
        active = p.get("contracts") or []
        words += "; " + _("contracts") + " " + ("; ".join(contract_words(c) for c in active) or _("none"))
        if p.get("tiles"):
            words += "; " + _("outpost tiles") + " " + ", ".join(bundle_words(x.get("reward")) for x in p["tiles"])
        car = p.get("caravan")
        if car:
            goods = ", ".join(car.get("goods") or []) or _("nothing")
            route = caravan_shields(public, car.get("route"))
            words += "; " + w("w.kh.caravanAt", route=route, city=board.name(car.get("at")), goods=goods)
        return words + "; " + _("goal cards {n}").format(n=p.get("goal_cards", 0))

    def goal_text(self, board: Board, g: dict[str, Any], posts: set[Any] | None) -> str:
        return goal_words(g)

    def event(self, view: View, ev: dict[str, Any]) -> str:
        return event_words(view, ev)


def event_words(view: View, ev: dict[str, Any]) -> str:  # noqa: C901
    """One log event in words, as the browser says it (compact JSON for an event this client does not know)."""
    public = view.get("public") or {}
    board = Board(public)

    def own(who: str) -> str | None:  # noqa: C901
        kind = ev.get("ev")

        def log(key: str, **params: Any) -> str:
            return w(f"w.kh.log.{key}", who=who, **params).rstrip(".")

        def common(key: str, **params: Any) -> str:
            return w(f"w.log.{key}", who=who, **params).rstrip(".")

        if kind == "round":
            return common("round", round=ev["round"], first=seat_name(view, ev.get("first")))
        if kind == "roll":
            dice = " ".join(f"{v}{'' if k == 'own' else w(f'w.diekind.{k}')[0]}" for k, v in ev["dice"])
            return common("roll", dice=dice)
        if kind == "goal_kept":
            return log("goalKept")
        if kind == "compensation":
            return log("compensation", coins=amount_words("coins", int(ev["coins"])))
        if kind == "double":
            return log("double", source=_source_words(public, board, str(ev["source"])))
        if kind == "offer":
            return log("offer", n=int(ev["i"]) + 1, space=board.space(str(ev["space"])))
        if kind == "seal":
            return log("seal", seal=seal_name(str(ev["seal"])))
        if kind == "improve":
            return log("improve", seal=seal_name(str(ev["seal"])))
        if kind == "outpost":
            return log("outpost", city=board.name(ev["city"]))
        if kind == "draw_contract":
            return log("drawContract")
        if kind == "discard":
            return common("discarded", what=_contract_named(public, ev.get("contract")))
        if kind == "bag":
            return log("bag", take=bag_take(str(ev["take"])))
        if kind == "reroll":
            return common("reroll", **{"from": ev["from"], "to": ev["to"]})
        if kind == "adjust":
            return common("adjust", **{"from": ev["from"], "to": int(ev["from"]) + int(ev["by"])})
        if kind == "tile":
            return log("tile")
        if kind == "caravan":
            return log("caravan", route=caravan_shields(public, ev.get("route")), city=board.name(ev["at"]))
        if kind == "deliver":
            return log("deliver", goods=", ".join(good_name(g) for g in ev.get("goods") or []) or w("w.empty"))
        if kind == "card_times":
            return common("cardTimes", n=int(ev["n"]))
        return None

    def die(k: Any, v: Any) -> str:
        return str(v) if k == "own" else f"{w(f'w.diekind.{k}')} {v}"

    return shared.event_sentence(view, ev, board, own, lambda cid: _contract_named(public, cid), die)


RENDERER = register(KhanRenderer())
