"""Terminal renderer for Marco Polo, the classic trading game (game id `classic`).

Owns: the route map as text (every stopping point with its type and trading-post colour, its land and sea
links, the pawns on it, and the option number of each possible end of the viewer's move), the two ransom
spaces with what lies on them, the last spin and fight, the trading visit, every player's pawn, route,
money, card count and mission progress, the viewer's own hand, money, total and mission, the recent log in
words, the result, and prompt options in words.
Must not: decide rules. It reads the view only (the board comes with the view); the viewer's hand and
mission city come from `private` and are drawn only when the view carries them.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clients.cli.games.common import LogRenderer
from clients.cli.i18n import N_, _, w, w_or
from clients.cli.render import Move, View, compact, register, seat_name

#: goods colours in the game's order, as rich styles
CARD_STYLES: dict[str, str] = {
    "violet": "bold magenta",
    "green": "bold green",
    "yellow": "bold yellow",
    "turquoise": "bold cyan",
}
#: how each type of stopping point is written in the map (mark, words)
NODE_KINDS: dict[str, tuple[str, str]] = {
    "venice": ("V", N_("start and goal")),
    "khanbaliq": ("K", "the Khan's capital"),
    "mission": ("*", "mission city"),
    "port": ("^", "port"),
    "post": ("o", "trading post"),
    "city": (".", "city"),
}
RAIDERS = {"robbers": "robbers", "pirates": "pirates"}
PHASE_WORDS = {
    "spin": "declaring the route and spinning",
    "move": "choosing where the move ends",
    "fight": "deciding whether to fight",
    "ransom": "paying a ransom",
    "gift": "giving gifts to the Khan",
    "sell": "selling goods",
    "buy": "buying goods",
    "discard": "putting back a goods card",
    "over": "game over",
}


# ---- reading the view -----------------------------------------------------------------------------


def board_nodes(public: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The stopping points of the board in the view, by id (board order kept)."""
    return {str(n["id"]): n for n in (public.get("board") or {}).get("nodes") or []}


def node_name(public: dict[str, Any], node: str | None) -> str:
    """A stopping point's display name (its id when the view does not know it)."""
    if node is None:
        return "?"
    n = board_nodes(public).get(node)
    return w_or(f"w.cl.node.{node}", str(n.get("name") or node)) if n else str(node).title()


def node_words(public: dict[str, Any], node: str) -> str:
    """`Caffa (violet trading post)`, `Trebizond (port)`, `Ragusa (city)`."""
    n = board_nodes(public).get(node) or {}
    kind = str(n.get("type", "city"))
    name = node_name(public, node)
    if kind in ("venice", "khanbaliq"):
        return name
    if kind == "post" and n.get("colour"):
        return w("w.cl.postPort" if n.get("port") else "w.cl.post", name=name, colour=colour_name(str(n["colour"])))
    return f"{name} ({w_or(f'w.cl.kind.{kind}', NODE_KINDS.get(kind, ('?', kind))[1])})"


def colour_name(colour: str) -> str:
    return w_or(f"w.cl.colour.{colour}", colour)


def links(public: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    """links[node][route] = the neighbouring points along routes of that type, in board order."""
    order = {nid: i for i, nid in enumerate(board_nodes(public))}
    out: dict[str, dict[str, list[str]]] = {nid: {"land": [], "sea": []} for nid in order}
    for a, b, mode in (public.get("board") or {}).get("edges") or []:
        out.setdefault(a, {"land": [], "sea": []}).setdefault(mode, []).append(b)
        out.setdefault(b, {"land": [], "sea": []}).setdefault(mode, []).append(a)
    for routes in out.values():
        for nbs in routes.values():
            nbs.sort(key=lambda n: order.get(n, 1 << 30))
    return out


def card_parts(card: str) -> tuple[str, str]:
    """Colour and value (or `hazard`) of a card id such as `violet-80-1` or `green-hazard-3`."""
    parts = card.split("-")
    if len(parts) >= 2:
        return parts[0], parts[1]
    return card, "?"


def card_words(card: str) -> str:
    """`violet 80` for `violet-80-1` (copies are interchangeable)."""
    colour, value = card_parts(card)
    return w("w.cl.card", colour=colour_name(colour), value=value)


def card_text(card: str) -> Text:
    """A card in words, drawn in its colour."""
    return Text(card_words(card), style=CARD_STYLES.get(card_parts(card)[0], ""))


def card_value(card: str) -> int:
    value = card_parts(card)[1]
    return int(value) if value.isdigit() else 0


def raiders(space: str | None) -> str:
    return w(f"w.cl.{space}") if space in ("pirates", "robbers") else RAIDERS.get(str(space), str(space))


def hazard_words(ev: dict[str, Any]) -> tuple[str, str]:
    """A hazard card's name and text in the current language: the name by the card's id, the text by its effect
    (the server's English words for a card or an effect the catalogue does not know)."""
    fx = ev.get("effect") or {}
    key = f"w.cl.hzfx.tribute.{fx.get('space')}" if fx.get("kind") == "tribute" else f"w.cl.hzfx.{fx.get('kind')}"
    money = w("w.cl.bezants", n=int(fx.get("amount") or 0))
    return w_or(f"w.cl.hz.{ev.get('card')}", str(ev.get("name"))), w_or(key, str(ev.get("text")), money=money)


def ransom_space_name(space: str | None) -> str:
    return f"the {raiders(space)}' ransom space"


def _players(public: dict[str, Any]) -> list[dict[str, Any]]:
    return list(public.get("players") or [])


def mission_words(player: dict[str, Any], public: dict[str, Any]) -> str:
    """A player's progress as everybody sees it."""
    if player.get("secret"):
        city = player.get("mission")
        return _("mission done ({city})").format(city=node_name(public, city)) if city else w("w.cl.ui.missionDone")
    if player.get("table"):
        return w("w.cl.ui.tableSecret")
    return w("w.cl.ui.noTable")


# ---- the renderer ---------------------------------------------------------------------------------


class ClassicRenderer(LogRenderer):
    """Marco Polo (classic): turn line, map, ransom spaces, players, the viewer's hand, log and result."""

    game = "classic"
    log_shown = 8

    # ---- option labels --------------------------------------------------------------------

    def label(self, view: View, option: Move) -> str:  # noqa: C901
        """A prompt option in words, as the browser says it: `Go by sea: spin the sea compass`, `Sell violet 80 …`."""
        public = view.get("public") or {}
        a = option.get("a")
        options = (view.get("prompt") or {}).get("options") or []
        space = (public.get("fight") or {}).get("space") or _spin_space(public)
        try:
            if a == "spin":
                route = w_or(f"w.cl.route.{option['route']}", str(option["route"]))
                both = sum(1 for o in options if o.get("a") == "spin") > 1
                return w("w.cl.opt.spinBy" if both else "w.cl.opt.spin", route=route)
            if a == "move":
                return w("w.cl.opt.move", to=node_words(public, option["to"]))
            if a == "fight":
                return w("w.cl.opt.fight", raiders=raiders(space))
            if a == "decline":
                return w("w.cl.opt.decline")
            if a == "ransom" and "card" in option:
                return w("w.cl.opt.ransomCard", card=card_words(option["card"]), raiders=raiders(space))
            if a == "ransom":
                return w("w.cl.opt.ransom", raiders=raiders(space))
            if a == "gift":
                return w("w.cl.opt.gift", card=card_words(option["card"]))
            if a == "sell":
                return w("w.cl.opt.sell", card=card_words(option["card"]), value=card_value(option["card"]))
            if a == "done" and len(option) == 1:
                return w("w.cl.opt.doneSelling" if public.get("phase") == "sell" else "w.cl.opt.doneTrading")
            if a == "buy" and len(option) == 1:
                return w("w.cl.opt.buy", colour=colour_name(str((public.get("trade") or {}).get("colour", "?"))))
            if a == "force":
                return w("w.cl.opt.force", who=seat_name(view, int(option["seat"])))
            if a == "discard":
                return w("w.cl.opt.discard", card=card_words(option["card"]))
        except (KeyError, TypeError, ValueError, IndexError):
            pass
        return compact(option)

    def prompt_text(self, view: View) -> str | None:
        """The prompt's question from the view's structure (the phase, the spin), in the current language."""
        public = view.get("public") or {}
        options = (view.get("prompt") or {}).get("options") or []
        phase = public.get("phase")
        if phase == "spin":
            both = sum(1 for o in options if o.get("a") == "spin") > 1
            return w("w.cl.prompt.spinBoth" if both else "w.cl.prompt.spin")
        if phase == "move":
            return w("w.cl.prompt.move", n=(public.get("spin") or {}).get("value", "?"))
        if phase in ("fight", "ransom", "gift", "sell", "buy", "discard"):
            return w(f"w.cl.prompt.{phase}")
        return None

    # ---- the board ------------------------------------------------------------------------

    def body(self, view: View) -> RenderableType:
        """The map, ransom spaces and stacks, players, the log, the turn and spin, and your hand."""
        public = view.get("public") or {}
        if "board" not in public:
            return super().body(view)
        # the long map first; what the next choice depends on last, next to the prompt
        parts: list[RenderableType] = [
            self.route_map(view),
            self.ransom_and_stacks(view),
            self.players(view),
            self.log(view),
            self.turn_line(view),
        ]
        spin = self.spin_line(view)
        if spin is not None:
            parts.append(spin)
        if view.get("private") is not None:
            parts.append(self.hand(view))
        return Group(*parts)

    def turn_block(self, view: View) -> RenderableType | None:
        if "board" not in (view.get("public") or {}):
            return None
        spin = self.spin_line(view)
        return self.turn_line(view) if spin is None else Group(self.turn_line(view), spin)

    def yours(self, view: View) -> RenderableType | None:
        """The viewer's cards by colour in a line, money and total, the colours for the win and the mission."""
        if view.get("private") is None or "board" not in (view.get("public") or {}):
            return None
        return self.hand(view, short=True)

    def turn_line(self, view: View) -> Text:
        """Round, whose turn, what they are doing, the winning total and the trading visit."""
        public = view["public"]
        if public.get("status") == "over" or view.get("result"):
            turns, rounds = public.get("turns", "?"), public.get("round", "?")
            return Text(w("w.cl.cli.over", n=turns, round=rounds), style="bold")
        turn = public.get("turn")
        phase = str(public.get("phase"))
        limit = (public.get("options") or {}).get("max_rounds")
        rnd = public.get("round", "?")
        text = Text.assemble(
            (w("w.cl.cli.roundOf", round=rnd, limit=limit) if limit else w("w.cl.cli.round", round=rnd)) + " ",
            (seat_name(view, turn), "bold reverse" if turn == view.get("you") else "bold"),
            " " + w("w.cl.cli.toPlay", phase=w_or(f"w.cl.cli.phase.{phase}", PHASE_WORDS.get(phase, phase))),
            "  " + w("w.cl.cli.goal", target=public.get("target", "?")),
        )
        trade = public.get("trade")
        if trade:
            colour = str(trade.get("colour"))
            text.append("\n" + _("Trading at") + " ")
            text.append(node_name(public, trade.get("post")), style="bold")
            text.append(" (")
            text.append(colour_name(colour), style=CARD_STYLES.get(colour, ""))
            text.append("): " + _("bought {n} of 3 from the stack.").format(n=trade.get("bought", 0)))
        return text

    def spin_line(self, view: View) -> Text | None:
        """This turn's spin and fight (cleared by the server when the turn ends)."""
        public = view["public"]
        spin = public.get("spin")
        if not spin:
            return None
        who = seat_name(view, public.get("turn"), you=False)
        value = spin.get("value")
        route = str(spin.get("route"))
        text = Text(_("Spun the {route} compass:").format(route=w_or(f"w.cl.route.{route}", route)) + " ", style="bold")
        text.append(f"{value}" if isinstance(value, int) else _("the {raiders}!").format(raiders=raiders(value)))
        fight = public.get("fight")
        if fight:
            result = _("{who} won") if fight.get("won") else _("{who} lost")
            text.append(
                "  "
                + _("Fight: {who} rolled {player}, the {raiders} {them}").format(
                    who=who, player=fight.get("player"), raiders=raiders(fight.get("space")), them=fight.get("raiders")
                )
                + f" ({result.format(who=who)})."
            )
        return text

    def _targets(self, view: View) -> dict[str, int]:
        """The option number (from 1) of each move destination in the viewer's prompt."""
        options = (view.get("prompt") or {}).get("options") or []
        return {str(o["to"]): i for i, o in enumerate(options, 1) if o.get("a") == "move" and "to" in o}

    def route_map(self, view: View) -> RenderableType:
        """Every stopping point with its type, land and sea links, pawns and move choices."""
        public = view["public"]
        nodes = board_nodes(public)
        nbs = links(public)
        targets = self._targets(view)
        pawns: dict[str, list[int]] = {}
        for p in _players(public):
            pawns.setdefault(str(p.get("pawn")), []).append(int(p["seat"]))
        mine = (view.get("private") or {}).get("mission")
        t = Table(show_edge=False, pad_edge=False, box=None, collapse_padding=True, header_style="bold underline")
        t.add_column(_("stopping point"), no_wrap=True)
        t.add_column(_("type"), no_wrap=True)
        t.add_column(_("land to"))
        t.add_column(_("sea to"))
        t.add_column(_("pawns"), no_wrap=True)
        for nid, n in nodes.items():
            kind = str(n.get("type", "city"))
            mark, words = NODE_KINDS.get(kind, ("?", kind))
            type_text = Text()
            if kind == "post":
                colour = str(n.get("colour"))
                type_text.append(colour_name(colour), style=CARD_STYLES.get(colour, ""))
                type_text.append(" " + _("post"))
            else:
                type_text.append(w_or(f"w.cl.kind.{kind}", words) if kind != "venice" else _(words))
            if nid == mine:
                type_text.append(" " + _("(your mission)"), style="bold")
            name = Text(f"{mark} ", style="dim")
            name.append(node_name(public, nid), style="bold" if kind in ("venice", "khanbaliq", "mission") else "")
            here = Text()
            for seat in pawns.get(nid, []):
                if here:
                    here.append(" ")
                here.append(seat_name(view, seat, you=False), style="bold")
                if seat == view.get("you"):
                    here.append("*", style="bold")
            if nid in targets:
                if here:
                    here.append(" ")
                here.append(f"<- {targets[nid]})", style="bold reverse")
            t.add_row(
                name,
                type_text,
                ", ".join(node_name(public, x) for x in nbs.get(nid, {}).get("land", [])),
                ", ".join(node_name(public, x) for x in nbs.get(nid, {}).get("sea", [])),
                here,
            )
        title = Text(_("Route map"), style="bold")
        title.append(
            "  ("
            + _("V Venice, K Khanbaliq, * mission city, ^ port, o trading post, . city")
            + ("; " + _("* after a name marks your pawn; <- n) is choice n") if view.get("you") is not None else "")
            + ")",
            style="dim",
        )
        return Group(title, t)

    def ransom_and_stacks(self, view: View) -> Text:
        """What lies on both ransom spaces, and how many cards each colour's stack holds."""
        public = view["public"]
        text = Text(_("Ransom spaces:"), style="bold")
        spaces = (public.get("board") or {}).get("ransom_spaces") or []
        ransom = public.get("ransom") or {}
        for space in spaces:
            sid = str(space.get("id"))
            lying = ransom.get(sid) or {}
            route = str(space.get("route"))
            name = w_or(f"w.cl.ransomSpace.{sid}", str(space.get("name", sid)))
            text.append(f"\n  {name} ({w_or(f'w.cl.route.{route}', route)}): ")
            money = int(lying.get("money") or 0)
            cards = list(lying.get("cards") or [])
            if not money and not cards:
                text.append(_("empty (a winner takes 30 from the bank)"), style="dim")
                continue
            bits: list[Text] = []
            if money:
                bits.append(Text(w("w.cl.bezants", n=money)))
            bits += [card_text(c) for c in cards]
            text.append_text(Text(", ").join(bits))
        stacks = public.get("stacks") or {}
        text.append("\n" + _("Stacks:") + " ", style="bold")
        for i, (colour, n) in enumerate(stacks.items()):
            if i:
                text.append(", ")
            text.append(colour_name(colour), style=CARD_STYLES.get(colour, ""))
            text.append(f" {n}")
        text.append(".  " + _("Golden Tables left: {n}.").format(n=public.get("tables", "?")))
        text.append("  " + _("Secrets of the East left: {n}.").format(n=public.get("secrets", "?")))
        return text

    def players(self, view: View) -> Table:
        """Each player's pawn, route type, money, cards in hand, mission progress and connection."""
        public = view["public"]
        seats = view.get("seats") or []
        t = Table(title=_("Players"), title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
        for col, just in (
            ("", "left"),
            (N_("seat"), "right"),
            (N_("player"), "left"),
            (N_("at"), "left"),
            (N_("route"), "left"),
            (N_("money"), "right"),
            (N_("cards"), "right"),
            (N_("mission"), "left"),
            (N_("online"), "left"),
        ):
            t.add_column(_(col) if col else col, justify=just)  # type: ignore[arg-type]
        for p in _players(public):
            s = int(p["seat"])
            connected = seats[s].get("connected") if s < len(seats) else None
            mission = mission_words(p, public)
            if p.get("skip"):
                mission += "; " + (_("misses {n} turns") if p["skip"] > 1 else _("misses {n} turn")).format(n=p["skip"])
            t.add_row(
                "▶" if s == public.get("turn") and not view.get("result") else "",
                str(s + 1),
                seat_name(view, s, guest=True),
                node_name(public, p.get("pawn")),
                w_or(f"w.cl.route.{p.get('route')}", "-"),
                str(p.get("money", "?")),
                str(p.get("hand", "?")),
                mission,
                _("yes") if connected else _("no"),
            )
        return t

    def hand(self, view: View, *, short: bool = False) -> Text:
        """The viewer's own cards, money, total, colours for the win, mission and private notices (`short`: the cards
        in one line, without the note on the total)."""
        public = view.get("public") or {}
        private = view.get("private") or {}
        you = view.get("you")
        me = next((p for p in _players(public) if p.get("seat") == you), {})
        hand: list[str] = list(private.get("hand") or [])
        worth = sum(card_value(c) for c in hand)
        text = Text(_("Your hand ({n} cards, worth {worth})").format(n=len(hand), worth=worth), style="bold")
        if short:
            text.append(":", style="bold")
        by_colour: dict[str, list[str]] = {}
        for card in hand:
            by_colour.setdefault(card_parts(card)[0], []).append(card)
        colours = [c for c in CARD_STYLES if c in by_colour] + sorted(c for c in by_colour if c not in CARD_STYLES)
        for i, colour in enumerate(colours):
            values = sorted((card_parts(c)[1] for c in by_colour[colour]), key=lambda v: -int(v) if v.isdigit() else 0)
            counts: dict[str, int] = {}
            for v in values:
                counts[v] = counts.get(v, 0) + 1
            if short:
                text.append(" " if i == 0 else "; ")
                text.append(colour_name(colour), style=CARD_STYLES.get(colour, ""))
                text.append(" ")
            else:
                text.append("\n  ")
                text.append(f"{colour_name(colour):<10}", style=CARD_STYLES.get(colour, ""))
            text.append(", ".join(v if n == 1 else f"{v} ×{n}" for v, n in counts.items()))
        if not hand:
            text.append((" " if short else "\n  ") + _("(no cards)"), style="dim")
        money = me.get("money", "?")
        total, target = private.get("total", "?"), public.get("target", "?")
        text.append(
            "\n"
            + _("Your money: {money} bezants.  Your total: {total} of {target}").format(
                money=money, total=total, target=target
            )
        )
        if not short:
            text.append(" " + _("(money + cards + 240 per Golden Table and Secret of the East)."))
        counts_win = {c: len(by_colour.get(c, [])) for c in ("turquoise", "yellow", "green")}
        text.append(("  " if short else "\n") + _("Colours for the win (1 or 2 each):") + " ")
        ok, no = " " + _("ok"), " " + _("(no)")
        text.append(", ".join(f"{colour_name(c)} {n}" + (ok if 1 <= n <= 2 else no) for c, n in counts_win.items()))
        mission = private.get("mission")
        text.append("\n" + _("Mission:") + " ")
        city = node_name(public, mission)
        if me.get("secret"):
            text.append(_("done in {city}: you hold the Secret of the East; now home to Venice.").format(city=city))
        elif mission:
            text.append(_("your Golden Table sends you to {city}").format(city=city), style="bold")
            text.append(" " + _("(secret until you reach it)."))
        else:
            eighties = sum(1 for c in hand if card_parts(c)[1] == "80")
            text.append(_("no Golden Table yet: bring three 80-cards to Khanbaliq (you hold {n}).").format(n=eighties))
        for note in private.get("notices") or []:
            text.append("\n  " + notice_words(view, note), style="italic")
        return text

    def event(self, view: View, ev: dict[str, Any]) -> str:
        return event_words(view, ev)

    def result(self, view: View) -> RenderableType:
        """Totals, progress and winners, and why the game ended."""
        res = view.get("result") or {}
        scores: list[Any] = list(res.get("scores") or [])
        ranking: list[int] = list(res.get("ranking") or range(len(scores)))
        progress: list[Any] = list(res.get("progress") or [])
        winners = set(res.get("winners") or [])
        table = Table(title=_("Final result"), title_justify="left", title_style="bold", show_edge=False)
        for col, just in (
            (N_("rank"), "right"),
            (N_("player"), "left"),
            (N_("total"), "right"),
            (N_("progress"), "left"),
            ("", "left"),
        ):
            table.add_column(_(col) if col else col, justify=just)  # type: ignore[arg-type]
        words = {0: w("w.cl.ui.progress0"), 1: w("w.cl.ui.progress1"), 2: w("w.cl.ui.missionDone")}
        for place, s in enumerate(ranking, 1):
            if s >= len(scores):
                continue
            prog = words.get(progress[s], str(progress[s])) if s < len(progress) else ""
            table.add_row(
                str(place),
                seat_name(view, s),
                str(scores[s]),
                prog,
                _("winner") if s in winners else "",
                style="bold green" if s in winners else None,
            )
        names = ", ".join(seat_name(view, w) for w in sorted(winners)) or _("nobody")
        if res.get("reason") == "venice":
            why = _("reached Venice with the mission done, the total and the colours.")
        elif res.get("reason") == "round_limit":
            why = _("the round limit ended the game: most progress, then the highest total, wins.")
        else:
            why = ""
        line = Text(
            (_("Winners: {names}") if len(winners) > 1 else _("Winner: {names}")).format(names=names),
            style="bold green",
        )
        if why:
            line.append(f" ({why})", style="")
        return Group(table, line, *breakdown_parts(view))


def breakdown_parts(view: View) -> list[RenderableType]:
    """The result's `breakdown` (the server's, at the end): every total's parts, best first, and what the end
    reveals of every seat (the mission city, the goods cards by colour, the win's colours, Venice)."""
    res = view.get("result") or {}
    parts: list[Any] = list(res.get("breakdown") or [])
    if not parts:
        return []
    public = view.get("public") or {}
    scores: list[Any] = list(res.get("scores") or [])
    ranking: list[int] = [s for s in (res.get("ranking") or range(len(parts))) if s < len(parts)]
    table = Table(title=w("w.bd.title"), title_justify="left", title_style="bold", show_edge=False)
    table.add_column(w("w.bd.player"))
    keys = ("money", "goods", "table", "secret")
    for key in (*keys, "total"):
        table.add_column(w(f"w.cl.bd.{key}"), justify="right")
    for s in ranking:
        b = parts[s] or {}
        table.add_row(seat_name(view, s), *(str(b.get(k, "")) for k in keys), str(scores[s] if s < len(scores) else ""))
    lines = Text(w("w.cl.bd.revealed") + "\n", style="bold")
    if isinstance(res.get("target"), int):
        lines.append(w("w.cl.bd.target", n=res["target"]) + "\n", style="")
    for s in ranking:
        b = parts[s] or {}
        said = []
        if b.get("mission"):
            key = "w.cl.bd.missionDone" if b.get("mission_done") else "w.cl.bd.missionOpen"
            said.append(w(key, city=node_name(public, b["mission"])))
        else:
            said.append(w("w.cl.ui.progress0"))
        goods = [f"{n} {colour_name(c)}" for c, n in (b.get("colours") or {}).items() if n]
        said.append(w("w.cl.bd.goodsBy", list=", ".join(goods)) if goods else w("w.cl.bd.noGoods"))
        said.append(w("w.cl.bd.coloursOk" if b.get("colours_ok") else "w.cl.bd.coloursNo"))
        if b.get("venice"):
            said.append(w("w.cl.bd.venice"))
        lines.append(f"  {seat_name(view, s)}: ", style="bold")
        lines.append("; ".join(said) + "\n", style="")
    return [table, lines]


def _spin_space(public: dict[str, Any]) -> str | None:
    spin = public.get("spin") or {}
    value = spin.get("value")
    return value if isinstance(value, str) else None


def notice_words(view: View, note: dict[str, Any]) -> str:
    """One of the viewer's private notices in words."""
    public = view.get("public") or {}
    kind = note.get("ev")
    try:
        if kind == "buy":
            return _("You drew a {card} card.").format(card=card_words(note["card"]))
        if kind == "golden_table":
            return _("The Khan's Golden Table names your mission city: {city}.").format(
                city=node_name(public, note.get("mission"))
            )
        if kind == "forced_sale" and "from" in note:
            return _("You took a {card} card from {who}.").format(
                card=card_words(note["card"]), who=seat_name(view, note.get("from"))
            )
        if kind == "forced_sale" and "card" in note:
            return _("{who} made you sell your {card} card for 30 bezants.").format(
                who=seat_name(view, note.get("to")), card=card_words(note["card"])
            )
        if kind == "forced_sale":
            return _("{who} made you sell a card for 30 bezants.").format(who=seat_name(view, note.get("to")))
    except (KeyError, TypeError):
        pass
    return compact(note)


def event_words(view: View, ev: dict[str, Any]) -> str:  # noqa: C901
    """One public log event in words, as the browser says it (compact JSON for an event this client does not know)."""
    public = view.get("public") or {}
    kind = ev.get("ev")
    who = seat_name(view, ev.get("seat")) if "seat" in ev else ""

    def log(key: str, **params: Any) -> str:
        return w(f"w.cl.log.{key}", who=who, **params).rstrip(".")

    def bezants(n: Any) -> str:
        return w("w.cl.bezants", n=int(n))

    try:
        if kind == "spin":
            value = ev["value"]
            route = w_or(f"w.cl.route.{ev['route']}", str(ev["route"]))
            return log("spin", route=route, value=str(value) if isinstance(value, int) else raiders(value))
        if kind == "move":
            where = {"from": node_name(public, ev["from"]), "to": node_name(public, ev["to"])}
            return log("moveShort", **where) if ev.get("short") else w("w.log.step", who=who, **where).rstrip(".")
        if kind == "no_move":
            return log("noMove")
        if kind == "fight":
            words = log("fight", raiders=raiders(ev["space"]), player=ev["player"], them=ev["raiders"])
            if ev["player"] < ev["raiders"]:
                return f"{words} {w('w.cl.log.lost')}".rstrip(".")
            loot = ev.get("loot") or {}
            if loot.get("bank"):
                return f"{words} {w('w.cl.log.wonBank', money=bezants(loot.get('money', 30)))}".rstrip(".")
            taken: list[str] = [bezants(loot["money"])] if loot.get("money") else []
            taken.extend(card_words(c) for c in loot.get("cards") or [])
            return f"{words} {w('w.cl.log.won', what=', '.join(taken))}".rstrip(".")
        if kind == "decline":
            return log("decline")
        if kind == "ransom":
            what = card_words(ev["card"]) if "card" in ev else bezants(ev.get("money", 0))
            return log("ransom", what=what, raiders=raiders(ev.get("space")))
        if kind == "sell":
            return log("sell", card=card_words(ev["card"]), money=bezants(ev.get("value", 0)))
        if kind == "buy":
            return log("buyFree" if ev.get("free") else "buy", colour=colour_name(str(ev["colour"])))
        if kind == "hazard":
            paid = f" ({w('w.cl.log.paid', n=ev['paid'])})" if "paid" in ev else ""
            name, text = hazard_words(ev)
            return log("hazard", name=name, text=text) + paid
        if kind == "discard":
            return log("discard", card=card_words(ev["card"]))
        if kind == "gifts":
            return log("gifts", cards=", ".join(card_words(c) for c in ev["cards"]))
        if kind == "golden_table":
            return log("table")
        if kind == "mission":
            return log("mission", city=node_name(public, ev["city"]))
        if kind == "venice":
            return log("venice")
        if kind == "win":
            return log("win", money=bezants(ev["total"])).rstrip("!")
        if kind == "miss_turn":
            return log("miss")
        if kind == "forced_sale":
            buyer, seller = seat_name(view, ev["buyer"]), seat_name(view, ev["seller"])
            return w("w.cl.log.forced", buyer=buyer, seller=seller, money=bezants(ev.get("price", 30))).rstrip(".")
        if kind == "round_limit":
            return w("w.cl.log.roundLimit").rstrip(".")
    except (KeyError, TypeError, ValueError):
        pass
    return compact({k: v for k, v in ev.items() if k != "n"})


RENDERER = register(ClassicRenderer())
