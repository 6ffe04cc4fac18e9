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

from clients.cli.games.board import Words, dice_text, placement_text, the_die
from clients.cli.games.board import join_texts as _join
from clients.cli.games.board import seat_style as _style
from clients.cli.render import GameRenderer, Move, View, compact, register, result_table, seat_name

GOODS: tuple[str, ...] = ("pepper", "silk", "gold")
SPACE_NAMES: dict[str, str] = {
    "book1": "Book I",
    "book2": "Book II",
    "book3a": "Book III (upper)",
    "book3b": "Book III (lower)",
    "seals": "Guild seals",
    "travel1": "Travel 1",
    "travel3": "Travel 3",
    "travel6": "Travel 6",
    "contracts": "Contracts",
    "khan": "Khan's favor",
}
SPACE_GIVES: dict[str, str] = {
    "book1": "an offer of tile I (+1 caravan step)",
    "book2": "an offer of tile II, lowest die ≥ 3",
    "book3a": "an offer of tile III, lowest die ≥ 5",
    "book3b": "an offer of tile III, lowest die ≥ 5",
    "seals": "a guild seal (lowest die ≥ the seal's)",
    "travel1": "1 location for 2 coins",
    "travel3": "up to 3 locations (die value)",
    "travel6": "up to 6 locations (die value) + 1 extra post",
    "contracts": "3 coins + up to 2 contracts",
    "khan": "4 coins + 2 camels; each die ≥ the last",
}
SPACE_DICE: dict[str, int] = {"seals": 2, "travel1": 1, "travel3": 2, "travel6": 3}
BOOK_PILE: dict[str, int] = {"book1": 0, "book2": 1, "book3a": 2, "book3b": 2}
BAG_TAKE: dict[str, str] = {"coins": "3 coins", "camels": "2 camels", "jade": "1 jade"}
CARGO_HOW: dict[str, str] = {
    "double": "double it (take 2 of the good)",
    "upgrade": "upgrade it to the next good",
    "vp": "sell it for VP",
}
LOG_SHOWN = 10


# ---- words for the pieces ----------------------------------------------------------------------

WORDS = Words(
    own={
        "good": lambda n: "1 good of your choice" if n == 1 else f"{n} goods of your choice",
        "contract": lambda n: "a contract from a city with your post",
        "draw_contract": lambda n: "the top contract of the pile" if n == 1 else f"{n} contracts from the pile",
        "other_marker": lambda n: "another city's bonus marker",
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
    if kind == "per_pip":
        return f"{bundle_words(card.get('reward'))} per pip of the die"
    if kind == "by_die":
        return "by die value 1–6: " + " / ".join(bundle_words(r) for r in card.get("rewards") or [])
    if kind == "count":
        what = "trading post" if card.get("counts") == "posts" else "completed contract"
        return f"{bundle_words(card.get('reward'))} per {what}, at most the die value"
    if kind == "trade":
        return f"pay {bundle_words(card.get('cost'))} → {bundle_words(card.get('reward'))}, up to the die value times"
    if kind == "either":
        ways = [f"{bundle_words(w.get('cost'))} → {bundle_words(w.get('reward'))}" for w in card.get("ways") or []]
        return " or ".join(ways) + " (one way), up to the die value times"
    if kind == "city_bonus":
        times = "/".join(str(t) for t in card.get("times_by_die") or [])
        return f"the bonus of your bonus cities, {times} times by die value (different cities)"
    if kind == "seal":
        return f"pay {bundle_words(card.get('cost'))}: a guild seal up to the die value"
    if kind == "move":
        steps = "/".join(str(t) for t in card.get("steps_by_die") or [])
        return f"move {steps} locations by die value (one post)"
    if kind == "contract":
        return f"{bundle_words(card.get('reward_per_pip'))} per pip + a contract from a city with your post"
    return compact(card)


def goal_words(g: dict[str, Any] | None) -> str:
    """A goal card: `goal-3: farmer's seal improved 4 VP, +1 shield lion, ...`."""
    if not g:
        return "?"
    icons = []
    for i in g.get("icons") or []:
        if "seal" in i:
            icons.append(f"{i['seal']}'s seal improved: {i.get('vp')} VP")
        else:
            icons.append(f"{i.get('shield')} shield: +1 shield")
    return f"{g.get('id')}: {', '.join(icons)}"


def tile_words(t: dict[str, Any] | None) -> str:
    """An offer tile's four offers."""
    if not t:
        return "—"
    offers = []
    for i, o in enumerate(t.get("offers") or []):
        price = f" for {o['jade']} jade" if o.get("jade") else ""
        offers.append(f"{i + 1}) {bundle_words(o.get('gain'))}{price}")
    return f"{t.get('id')}: " + "; ".join(offers)


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
        return str(n.get("name")) if n else str(node)

    def kind(self, node: str) -> str:
        return str(self.nodes.get(node, {}).get("type", "?"))

    def character(self, cid: str | None) -> str:
        if not cid:
            return "—"
        return str((self.characters.get(cid) or {}).get("name") or cid)

    def space(self, space: str) -> str:
        """An action space in words; a city-card space names its city, a special city its name."""
        if space in SPACE_NAMES:
            return SPACE_NAMES[space]
        if space in self.special:
            return f"the special city {self.name(space)}"
        if space.startswith("slot-"):
            i = int(space.split("-")[1])
            if i < len(self.card_slots):
                return f"the city card at {self.name(self.card_slots[i])} (slot {i})"
            return f"the action-area city card {i - len(self.card_slots) + 1}"
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
    words = " + ".join(parts) or "free"
    if e.get("seal"):
        words += f", {e['seal']}'s seal needed"
    return words


def _me(view: View) -> dict[str, Any] | None:
    you = view.get("you")
    players = (view.get("public") or {}).get("players") or []
    return players[you] if isinstance(you, int) and 0 <= you < len(players) else None


def _my_pending(view: View) -> dict[str, Any] | None:
    you = view.get("you")
    for item in (view.get("public") or {}).get("pending") or []:
        if item.get("seat") == you:
            return item  # type: ignore[no-any-return]
    return None


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
        return f"the bonus of {board.name(what)} ({bundle_words(m.get('reward'))})"
    if kind == "special":
        return f"the bonus of {board.name(what)} ({bundle_words((board.special.get(what) or {}).get('bonus'))})"
    if kind == "seal":
        return f"the {what}'s seal bonus ({bundle_words((board.seals.get(what) or {}).get('bonus'))})"
    return "your character's 2 coins"


class KhanRenderer(GameRenderer):
    """Marco Polo II: map, action spaces, contracts, city cards, offers, players, your goals, log."""

    game = "khan"

    # ---- option labels --------------------------------------------------------------------

    def label(self, view: View, option: Move) -> str:  # noqa: C901
        """A prompt option in words, e.g. `choose Travel 3 (2 dice)`, `move from Beijing to Karakorum`."""
        public = view.get("public") or {}
        board = Board(public)
        a = option.get("a")
        me = _me(view) or {}
        pending = _my_pending(view) or {}
        try:
            if a == "character":
                return f"play {board.character(str(option['character']))}"
            if a == "goal":
                private = view.get("private") or {}
                g = next((x for x in private.get("goal_offer") or [] if x.get("id") == option["keep"]), None)
                return f"keep the goal card {goal_words(g) if g else option['keep']}"
            if a == "space":
                space = str(option["space"])
                n = 1 if space == "seals" and me.get("character") == "dewu" else SPACE_DICE.get(space, 1)
                words = f"choose {board.space(space)} ({n} {'die' if n == 1 else 'dice'})"
                card = _card_at(public, space)
                if card:
                    words += f": {card_words(card)}"
                return words
            if a == "die":
                where = board.space(str(pending.get("space"))) if pending.get("kind") == "dice" else None
                return f"place {the_die(option['kind'], option['value'])}" + (f" on {where}" if where else "")
            if a == "cancel":
                return "cancel this action (take the dice back)"
            if a == "fulfil":
                c = _find_contract(public, str(option["contract"]))
                return f"fulfil {option['contract']} ({contract_words(c)})"
            if a == "improve":
                seal = board.seals.get(str(option["seal"])) or {}
                return f"improve your {option['seal']}'s seal for {bundle_words(seal.get('improve'))}"
            if a == "bag":
                take = BAG_TAKE.get(str(option["take"]), str(option["take"]))
                return f"put {the_die(option['kind'], option['value'])} in the money bag for {take}"
            if a == "reroll":
                return f"reroll {the_die(option['kind'], option['value'])} for 1 camel"
            if a == "adjust":
                new = int(option["value"]) + int(option["by"])
                return f"turn {the_die(option['kind'], option['value'])} to {new} for 2 camels"
            if a == "black":
                if pending.get("kind") == "black_pick":
                    return f"take the black die showing {option['value']}"
                value = f" showing {option['value']}" if "value" in option else ""
                return f"buy a black die{value} for 3 camels"
            if a == "tile":
                reward = next((t.get("reward") for t in me.get("tiles") or [] if t.get("id") == option["tile"]), None)
                return f"use the outpost tile {option['tile']} ({bundle_words(reward)})"
            if a == "caravan":
                shields = next(
                    (r.get("shields") for r in public.get("caravan_routes") or [] if r.get("id") == option["route"]),
                    None,
                )
                between = f" ({' – '.join(shields)})" if shields else ""
                return f"claim caravan route {option['route']}{between}, starting in {board.name(option['start'])}"
            if a == "deliver":
                return "deliver your caravan's goods"
            if a == "end":
                return "end your turn"
            if a == "comp":
                coins = int(option["coins"])
                camels = int(pending.get("amount", coins)) - coins
                return f"take {amount_words('coins', coins)} and {amount_words('camels', camels)}"
            if a == "pair":
                v = int(option["value"])
                gain = "1 jade" if v in (1, 6) else "1 silk" if v in (2, 5) else "1 gold"
                return f"use the pair of {v}s for {gain}"
            if a == "singles":
                return "take the single bonuses for the rest of your dice"
            if a == "double":
                return f"receive {_source_words(public, board, str(option['source']))} again"
            if a == "marker":
                m = (public.get("markers") or {}).get(str(option["city"])) or {}
                return f"take the bonus marker of {board.name(option['city'])} ({bundle_words(m.get('reward'))})"
            if a == "good":
                return f"take 1 {option['good']}"
            if a == "offer":
                i = int(option["i"])
                tile = (public.get("offers") or [None] * 3)[BOOK_PILE.get(str(pending.get("space")), 0)] or {}
                offers = tile.get("offers") or []
                if 0 <= i < len(offers):
                    o = offers[i]
                    price = f" for {o['jade']} jade" if o.get("jade") else ""
                    return f"take offer {i + 1}: {bundle_words(o.get('gain'))}{price}"
                return f"take offer {i + 1}"
            if a == "seal":
                seal = board.seals.get(str(option["seal"])) or {}
                jade = f" (+{seal['jade']} jade)" if seal.get("jade") else ""
                return f"take the {option['seal']}'s guild seal{jade}"
            if a == "step":
                figs = me.get("figures") or []
                fig = int(option["fig"])
                here = figs[fig] if 0 <= fig < len(figs) else None
                who = f"figure {fig + 1} " if len(figs) > 1 else ""
                frm = f"from {board.name(here)} " if here is not None else ""
                cost = route_cost(board.route(here, option["to"])) if here is not None else ""
                return f"move {who}{frm}to {board.name(option['to'])}" + (f" (route: {cost})" if cost else "")
            if a == "stop":
                kind = pending.get("kind")
                return {
                    "travel": "stop moving here",
                    "card": "stop using the city card",
                    "load": "stop loading the caravan",
                    "caravan_move": "stop the caravan here",
                }.get(str(kind), "stop")
            if a == "post":
                return f"place your extra trading post in {board.name(option['city'])}"
            if a == "skip":
                return "skip the extra trading post"
            if a == "oases":
                coins = int(option["coins"])
                camels = int(pending.get("n", coins)) - coins
                gain = f"{amount_words('coins', 2 * coins)} and {amount_words('camels', camels)}"
                return f"take the oasis bonus as {gain}"
            if a == "relocate":
                return f"move your trading post from {board.name(option['from'])}"
            if a == "take":
                cid = str(option["contract"])
                words = f"take {cid} ({contract_words(_find_contract(public, cid))})"
                if "discard" in option:
                    words += f", discarding {option['discard']}"
                return words
            if a == "done":
                return "take no more contracts"
            if a == "decline":
                return "decline the contract"
            if a == "discard":
                cid = str(option["contract"])
                drawn = pending.get("contract") if isinstance(pending.get("contract"), dict) else {}
                if drawn and drawn.get("id") == cid:
                    return f"discard the new contract {cid} ({contract_words(drawn)})"
                return f"discard your contract {cid} ({contract_words(_find_contract(public, cid))})"
            if a == "times":
                n, way = int(option["n"]), int(option["way"])
                text = f"use the city card {n} {'time' if n == 1 else 'times'}"
                card = _card_by_id(public, str(pending.get("card") or "")) or {}
                ways = card.get("ways") or []
                if len(ways) > 1 and 0 <= way < len(ways):
                    text += f" ({bundle_words(ways[way].get('cost'))} → {bundle_words(ways[way].get('reward'))})"
                return text
            if a == "city":
                return f"take the bonus of {_source_words(public, board, self._bonus_label(board, option['city']))}"
            if a == "load":
                return f"load 1 {option['good']} onto your caravan"
            if a == "haul":
                return f"move your caravan to {board.name(option['to'])}"
            if a == "cargo":
                good = (pending.get("goods") or ["?"])[0]
                return f"{good} cargo: {CARGO_HOW.get(str(option['how']), str(option['how']))}"
        except (KeyError, TypeError, ValueError, IndexError):
            pass
        return compact(option)

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
            return Text("Game over after round 5.", style="bold")
        phase = public.get("phase")
        text = Text(f"Round {public.get('round', '?')} of 5.  ", style="bold")
        if phase == "play":
            turn = public.get("turn")
            text.append(seat_name(view, turn), style="bold reverse" if turn == view.get("you") else "bold")
            text.append(" to play")
            text.append(" (main action done: bonus actions or end)." if public.get("main_done") else ".")
        elif phase == "start":
            text.append("Round start: compensation and bonus choices.")
        elif phase == "draft":
            order = (public.get("draft") or {}).get("order") or []
            who = seat_name(view, order[0]) if order else "?"
            text.append(f"Character draft: {who} chooses.")
        elif phase == "goals":
            text.append("Everybody keeps 1 of 3 goal cards.")
        else:
            text.append(str(phase))
        text.append(f"  First player: {seat_name(view, public.get('first'))}.")
        black = public.get("black_dice") or []
        text.append(f"  Black dice on the board: {len(black)}.")
        return text

    def asking(self, view: View) -> Text:
        public = view["public"]
        board = Board(public)
        text = Text()
        draft = public.get("draft")
        if draft and draft.get("offer"):
            text.append("Characters offered: ", style="bold")
            text.append(", ".join(board.character(c) for c in draft["offer"]))
        for item in public.get("pending") or []:
            who = seat_name(view, item.get("seat"))
            kind = item.get("kind")
            if kind == "dice":
                picked = item.get("picked") or []
                what = f"{who} is placing dice on {board.space(str(item.get('space')))} ({len(picked)} chosen)"
            elif kind == "travel":
                what = f"{who} is travelling ({item.get('steps')} of at most {item.get('max')} locations)"
            elif kind == "contracts":
                what = f"{who} is taking contracts ({len(item.get('taken') or [])} taken)"
            elif kind == "comp":
                what = f"{who} takes {item.get('amount')} as coins and camels (dice below 15)"
            elif kind == "goal":
                what = f"{who} keeps a goal card"
            elif kind == "offer":
                what = f"{who} chooses an offer of {board.space(str(item.get('space')))}"
            else:
                what = f"{who}: {kind}"
            if text:
                text.append("\n")
            text.append("Now: ", style="bold")
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
        t = Table(title="Map: locations", title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
        for col in ("location", "kind", "shield", "features", "trading posts", "figures"):
            t.add_column(col)
        markers = public.get("markers") or {}
        outposts = public.get("outposts") or {}
        for nid, node in board.nodes.items():
            feats = []
            if nid in board.contract_cities:
                feats.append("contracts")
            for i, c in enumerate(board.card_slots):
                if c == nid:
                    feats.append(f"city card slot {i}")
            if nid in markers:
                feats.append(f"bonus: {bundle_words((markers[nid] or {}).get('reward'))}")
            if nid in board.outpost_cities:
                tile = outposts.get(nid)
                feats.append(f"first post: {bundle_words(tile.get('reward'))}" if tile else "outpost bonus taken")
            if nid in board.special:
                sp = board.special[nid]
                feats.append(f"special: {bundle_words(sp.get('reward'))}; bonus {bundle_words(sp.get('bonus'))}")
            post_text = _join([Text(seat_name(view, s, you=False), style=_style(s)) for s in posts.get(nid, [])])
            figs = []
            for s, f in figures.get(nid, []):
                many = len((public.get("players") or [])[s].get("figures") or []) > 1
                label = seat_name(view, s, you=False) + (f" #{f + 1}" if many else "")
                if s == view.get("you"):
                    label += "*"
                figs.append(Text(label, style=_style(s)))
            for s in caravans.get(nid, []):
                figs.append(Text(f"{seat_name(view, s, you=False)}'s caravan", style=_style(s)))
            kind = str(node.get("type"))
            t.add_row(
                str(node.get("name")),
                "start" if kind == "start" else kind,
                str(node.get("shield") or ""),
                "; ".join(feats),
                post_text,
                _join(figs),
            )
        return t

    def routes(self, view: View) -> Group:
        board = Board(view["public"])
        items = [f"{board.name(e['a'])} – {board.name(e['b'])}: {route_cost(e)}" for e in board.edges]
        head = Text(f"Map: {len(items)} routes", style="bold")
        head.append("  (costs to pay for each route moved along; jade pays for missing coins and camels)", style="dim")
        return Group(head, Columns(items, padding=(0, 3), column_first=True))

    def action_spaces(self, view: View) -> Group:
        public = view["public"]
        board = Board(public)
        spaces = public.get("spaces") or {}
        t = Table(title="Action spaces", title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
        t.add_column("space")
        t.add_column("dice", justify="right")
        t.add_column("gives")
        t.add_column("dice placed (a taken blue space costs the lowest die in coins)")
        for space in ("book1", "book2", "book3a", "book3b", "seals", "travel1", "travel3", "travel6", "contracts"):
            placed = _join([placement_text(view, pl) for pl in spaces.get(space) or []], "; ")
            t.add_row(SPACE_NAMES[space], str(SPACE_DICE.get(space, 1)), SPACE_GIVES[space], placed)
        khan = public.get("khan") or []
        ladder = Text()
        for i in range(4):
            if i:
                ladder.append(" ≤ ")
            ladder.append_text(placement_text(view, khan[i]) if i < len(khan) else Text("empty", style="dim"))
        t.add_row("Khan's favor", "1", SPACE_GIVES["khan"], ladder)
        special = public.get("special") or {}
        for city, sp in board.special.items():
            placed = _join([placement_text(view, pl) for pl in special.get(city) or []], "; ")
            gives = f"{bundle_words(sp.get('reward'))} (+ {sp.get('seal')}'s improved bonus); post needed, 2 places"
            t.add_row(board.name(city), "1", gives, placed)
        for cc in public.get("city_cards") or []:
            used = cc.get("used")
            placed = placement_text(view, used) if isinstance(used, dict) else Text("")
            where = board.space(str(cc.get("space")))
            t.add_row(where[0].upper() + where[1:], "1", card_words(cc.get("card")), placed)
        bag = _join([placement_text(view, pl) for pl in public.get("bag") or []], "; ")
        t.add_row("Money bag", "1", "3 coins, 2 camels or 1 jade (bonus action)", bag)
        offers = Text("Offer tiles on the books", style="bold")
        nexts = public.get("next_offers") or []
        for i, tile in enumerate(public.get("offers") or []):
            book = ("Book I", "Book II", "Book III")[i] if i < 3 else f"book {i}"
            offers.append(f"\n  {book}: {tile_words(tile)}")
            if i < len(nexts) and nexts[i]:
                offers.append(f"  (next: {nexts[i].get('id')})", style="dim")
        return Group(t, offers)

    def contracts(self, view: View) -> Text:
        public = view["public"]
        board = Board(public)
        text = Text("Contracts in the contract cities", style="bold")
        for city, row in (public.get("contract_spaces") or {}).items():
            text.append(f"\n  {board.name(city)}: ")
            text.append("; ".join(f"{c['id']}: {contract_words(c)}" if c else "empty" for c in row) or "empty")
        text.append(f"\n  Contract pile: {public.get('pile', 0)}.", style="dim")
        return text

    def city_cards(self, view: View) -> Text:
        public = view["public"]
        board = Board(public)
        text = Text("City cards (a die on a card by a city needs your post there)", style="bold")
        for cc in public.get("city_cards") or []:
            card = cc.get("card") or {}
            where = board.name(cc["city"]) if cc.get("city") else "action area"
            text.append(f"\n  {where}: {card.get('id')}: {card_words(card)}")
            if cc.get("used"):
                text.append("  (taken)", style="dim")
        text.append(f"\n  City card deck: {public.get('deck', 0)}.", style="dim")
        routes = public.get("caravan_routes") or []
        if (public.get("options") or {}).get("caravans"):
            text.append("\nCaravan routes: ", style="bold")
            text.append(", ".join(f"{r['id']} ({' – '.join(r.get('shields') or [])})" for r in routes) or "none")
        return text

    def players(self, view: View) -> Group:
        public = view["public"]
        board = Board(public)
        seats = view.get("seats") or []
        t = Table(title="Players", title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
        numeric = ("coins", "camels", "pepper", "silk", "gold", "jade", "VP")
        for col in ("", "player", "character", *numeric, "posts (left)", "dice", "done", "online"):
            t.add_column(col, justify="right" if col in numeric or col == "done" else "left")
        held = Text("Seals, contracts, tiles and caravans", style="bold")
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
                "yes" if connected else "no",
            )
            held.append("\n  ")
            held.append(seat_name(view, s), style=_style(s))
            seals = p.get("seals") or {}
            held.append(": seals " + (", ".join(f"{k} ({v})" for k, v in seals.items()) or "none"))
            active = p.get("contracts") or []
            held.append("; contracts " + ("; ".join(f"{c['id']}: {contract_words(c)}" for c in active) or "none"))
            if p.get("tiles"):
                held.append("; tiles " + ", ".join(f"{x['id']} ({bundle_words(x.get('reward'))})" for x in p["tiles"]))
            car = p.get("caravan")
            if car:
                held.append(f"; caravan {car.get('route')} at {board.name(car.get('at'))}")
                held.append(f" carrying {', '.join(car.get('goods') or []) or 'nothing'}")
            held.append(f"; goal cards {p.get('goal_cards', 0)}")
        return Group(t, held)

    def your_board(self, view: View) -> Text:
        public = view["public"]
        board = Board(public)
        private = view.get("private") or {}
        me = _me(view) or {}
        text = Text("Your board", style="bold")
        char = me.get("character")
        if char:
            ability = (board.characters.get(char) or {}).get("ability", "")
            text.append(f"\n  Character: {board.character(char)}: {ability}")
        text.append("\n  Your goal cards (secret): ")
        goals = private.get("goals") or []
        if not goals:
            text.append("none yet", style="dim")
        for g in goals:
            text.append("\n    " + goal_words(g))
        offer = private.get("goal_offer") or []
        if offer:
            text.append("\n  Goal cards offered (keep 1): " + "; ".join(goal_words(g) for g in offer))
        return text

    def event(self, view: View, ev: dict[str, Any]) -> str:
        return event_words(view, ev)

    def log(self, view: View) -> Text:
        events = (view.get("public") or {}).get("log") or []
        text = Text("Recent events", style="bold")
        if not events:
            text.append("\n  (nothing yet)", style="dim")
        for ev in events[-LOG_SHOWN:]:
            text.append("\n  " + event_words(view, ev))
        return text

    def result(self, view: View) -> RenderableType:
        res = view.get("result") or {}
        parts: list[RenderableType] = [result_table(view, tiebreak_label="camels")]
        breakdown = res.get("breakdown") or []
        if breakdown:
            t = Table(title="Final scoring", title_justify="left", title_style="bold", show_edge=False)
            t.add_column("player")
            items = [
                ("in_game", "in game"),
                ("goal_seals", "goal seals"),
                ("shields", "shields"),
                ("shield_count", "(count)"),
                ("goods", "goods"),
                ("coins", "coins"),
                ("contracts", "most contracts"),
                ("caravan", "caravan"),
                ("total", "total"),
            ]
            for _, label in items:
                t.add_column(label, justify="right")
            for s, b in enumerate(breakdown):
                t.add_row(seat_name(view, s), *(str(b.get(k, 0)) for k, _ in items))
            parts.append(t)
        goals = Text()
        for p in (view.get("public") or {}).get("players") or []:
            if p.get("goals"):
                goals.append(f"{seat_name(view, p['seat'])}'s goal cards: ")
                goals.append("; ".join(goal_words(g) for g in p["goals"]) + "\n")
        if goals:
            parts.append(goals)
        return Group(*parts)


def event_words(view: View, ev: dict[str, Any]) -> str:  # noqa: C901
    """One log event in words (compact JSON for an event this client does not know)."""
    public = view.get("public") or {}
    board = Board(public)
    kind = ev.get("ev")
    who = seat_name(view, ev.get("seat")) if "seat" in ev else ""
    try:
        if kind == "round":
            return f"round {ev['round']} begins; {seat_name(view, ev.get('first'))} is first player"
        if kind == "roll":
            return f"{who} rolled " + " ".join(f"{v}{'' if k == 'own' else k[0]}" for k, v in ev["dice"])
        if kind == "character":
            return f"{who} chose {board.character(ev.get('character'))}"
        if kind == "goal_kept":
            return f"{who} kept a goal card"
        if kind == "compensation":
            return f"{who} took compensation ({amount_words('coins', int(ev['coins']))} and camels for the rest)"
        if kind == "double":
            return f"{who} received {_source_words(public, board, str(ev['source']))} again"
        if kind == "place":
            dice = ", ".join(f"{k} {v}" for k, v in ev["dice"])
            fee = f", paying {amount_words('coins', int(ev['fee']))}" if ev.get("fee") else ""
            return f"{who} placed {dice} on {board.space(str(ev['space']))}{fee}"
        if kind == "offer":
            return f"{who} took offer {int(ev['i']) + 1} of {board.space(str(ev['space']))}"
        if kind == "seal":
            return f"{who} took the {ev['seal']}'s guild seal"
        if kind == "improve":
            return f"{who} improved the {ev['seal']}'s seal"
        if kind == "step":
            return f"{who} moved from {board.name(ev['from'])} to {board.name(ev['to'])}"
        if kind == "post":
            vp = f" (+{ev['vp']} VP)" if ev.get("vp") else ""
            return f"{who} placed trading post {ev.get('nth')} in {board.name(ev['city'])}{vp}"
        if kind == "outpost":
            return f"{who} took the outpost bonus of {board.name(ev['city'])}"
        if kind == "relocate":
            return f"{who} moved a trading post from {board.name(ev['from'])} to {board.name(ev['to'])}"
        if kind == "take_contract":
            return f"{who} took {ev['contract']}"
        if kind == "draw_contract":
            return f"{who} drew {ev['contract']} from the pile"
        if kind == "discard":
            return f"{who} discarded {ev['contract']}"
        if kind == "fulfil":
            return f"{who} fulfilled {ev['contract']}"
        if kind == "bag":
            return f"{who} put a die in the money bag for {BAG_TAKE.get(str(ev['take']), ev['take'])}"
        if kind == "reroll":
            return f"{who} rerolled a {ev['from']}: {ev['to']}"
        if kind == "adjust":
            return f"{who} turned a {ev['from']} to {int(ev['from']) + int(ev['by'])}"
        if kind == "black_die":
            return f"{who} took a black die: {ev['value']}"
        if kind == "tile":
            return f"{who} used the outpost tile {ev['tile']}"
        if kind == "caravan":
            return f"{who} claimed caravan route {ev['route']} at {board.name(ev['at'])}"
        if kind == "deliver":
            return f"{who} delivered the caravan ({', '.join(ev.get('goods') or []) or 'empty'})"
        if kind == "card_times":
            return f"{who} used a city card {ev['n']} time{'s' if int(ev['n']) != 1 else ''}"
        if kind == "end_turn":
            return f"{who} ended the turn"
        if kind == "final_scoring":
            return "final scoring: " + ", ".join(
                f"{seat_name(view, s)} {v}" for s, v in enumerate(ev.get("scores") or [])
            )
    except (KeyError, TypeError, ValueError, IndexError):
        pass
    return compact({k: v for k, v in ev.items() if k != "n"})


RENDERER = register(KhanRenderer())
