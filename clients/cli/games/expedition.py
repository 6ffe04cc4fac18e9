"""Terminal renderer for Marco Polo Expedition (game id `expedition`).

Owns: drawing the track (requirements in words, scoring values, chests, figures in their colours),
the viewer's hand grouped by colour and kind, the face-up cards, deck and discard pile, every player's
cards, chests and gold where public, whose turn and which phase, the recent log in words, the result,
and prompt options in words.
Must not: decide rules. It reads the view only; the one piece of rule knowledge, which space a figure
enters next (occupied spaces are skipped), is there to put a number in an option label and nothing
checks it.
"""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clients.cli.games.common import LogRenderer
from clients.cli.i18n import N_, _, w, w_or
from clients.cli.render import Move, View, compact, register, result_table, seat_name

#: card colours in the order the game lists them, and how to draw them
CARD_STYLES: dict[str, str] = {
    "blue": "bold blue",
    "yellow": "bold yellow",
    "red": "bold red",
    "green": "bold green",
    "purple": "bold magenta",
}
KIND_ORDER = ("oil", "spice", "silk", "fruit", "leader")
#: figure colours as rich styles (rich has no plain "orange")
FIGURE_STYLES: dict[str, str] = {
    "red": "bold red",
    "blue": "bold blue",
    "green": "bold green",
    "orange": "bold dark_orange",
    "white": "bold white",
}


def requirement_words(req: dict[str, Any] | None) -> str:
    """A space's requirement in words, e.g. `2 same goods`, `1 leader`, `3 of one colour`, `5 colours`."""
    if req is None:
        return "—"
    kind = req.get("kind")
    n = req.get("n")
    if kind == "goods":
        return _("1 goods card") if n == 1 else _("{n} same goods").format(n=n)
    if kind == "leaders":
        return _("1 leader") if n == 1 else _("{n} leaders").format(n=n)
    if kind == "colour":
        return _("{n} of one colour").format(n=n)
    if kind == "five_colours":
        return _("5 colours")
    if kind == "four_goods":
        return _("4 goods types")
    return compact(req)


def card_parts(card: str) -> tuple[str, str]:
    """Colour and kind of a card id such as `blue-oil-1`."""
    parts = card.split("-")
    if len(parts) >= 3:
        return parts[0], "-".join(parts[1:-1])
    if len(parts) == 2:
        return parts[0], parts[1]
    return card, "?"


def card_name(card: str) -> str:
    """A card by its colour and kind, as the browser names it: `blue oil`, `red caravan leader`."""
    colour, kind = card_parts(card)
    return w("w.ex.card", colour=w_or(f"w.ex.colour.{colour}", colour), kind=w_or(f"w.ex.kind.{kind}", kind))


def card_text(card: str | None) -> Text:
    """A card by name, drawn in its colour (`empty` for a missing card)."""
    if card is None:
        return Text(w("w.empty"), style="dim")
    return Text(card_name(card), style=CARD_STYLES.get(card_parts(card)[0], ""))


def hand_groups(hand: list[str]) -> list[tuple[str, list[tuple[str, int]]]]:
    """The hand grouped by colour (game order), then kind (goods, then leaders) with counts."""
    counts: dict[str, dict[str, int]] = {}
    for card in hand:
        colour, kind = card_parts(card)
        counts.setdefault(colour, {})
        counts[colour][kind] = counts[colour].get(kind, 0) + 1
    colours = [c for c in CARD_STYLES if c in counts] + sorted(c for c in counts if c not in CARD_STYLES)
    out = []
    for colour in colours:
        known = [k for k in KIND_ORDER if k in counts[colour]]
        kinds = known + sorted(k for k in counts[colour] if k not in KIND_ORDER)
        out.append((colour, [(k, counts[colour][k]) for k in kinds]))
    return out


def _figures(public: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {int(f["fig"]): f for f in public.get("figures") or []}


def figure_colour(public: dict[str, Any], fig: int | None) -> str:
    """The colour of figure `fig` (`figure N` when the view does not say)."""
    f = _figures(public).get(fig) if fig is not None else None
    return str(f["colour"]) if f and f.get("colour") else f"figure {fig}"


def next_space(public: dict[str, Any], fig: int) -> int | None:
    """The space figure `fig` would enter next, as the server states it in the view."""
    figure = _figures(public).get(fig)
    nxt = figure.get("next") if figure else None
    return int(nxt) if isinstance(nxt, int) else None


def _space_name(public: dict[str, Any], pos: int | None) -> str:
    if pos is None:
        return w("w.ex.nextSpace")
    track = public.get("track") or []
    name = track[pos].get("name") if 0 <= pos < len(track) else None
    space = w("w.ex.space", n=pos)
    return f"{space} ({w_or(f'w.ex.city.{name}', str(name))})" if name else space


class ExpeditionRenderer(LogRenderer):
    """Marco Polo Expedition: track, hand, display, players, turn, log and result."""

    game = "expedition"
    log_shown = 8

    # ---- option labels --------------------------------------------------------------------

    def label(self, view: View, option: Move) -> str:
        """A prompt option in words, as the browser says it: `Move the red figure to space 7, paying blue oil`."""
        public = view.get("public") or {}
        a = option.get("a")
        try:
            if a in ("move", "lighten", "choose"):
                fig = int(option["fig"])
                colour = figure_colour(public, fig)
                words = {"fig": w("w.ex.figure", colour=w_or(f"w.ex.colour.{colour}", colour))}
                words["to"] = _space_name(public, next_space(public, fig))
                if a == "move":
                    return w("w.ex.opt.move", cards=", ".join(card_name(c) for c in option.get("pay") or []), **words)
                return w(f"w.ex.opt.{a}", **words)
            if a == "pick":
                return w("w.ex.opt.pick", card=card_name(str(option["card"])))
            if a == "cancel":
                return w("w.ex.opt.cancel")
            if a == "draw" and option.get("from") == "display":
                slot = int(option["slot"])
                display = public.get("display") or []
                card = display[slot] if 0 <= slot < len(display) else None
                if card is None:
                    return w("w.ex.opt.drawFace", card=w("w.empty"))
                name = card_name(card)
                if sum(1 for c in display if c is not None and card_name(c) == name) > 1:  # a twin in the row
                    return w("w.ex.opt.drawFaceAt", card=name, n=slot + 1)
                return w("w.ex.opt.drawFace", card=name)
            if a == "draw" and option.get("from") == "deck":
                return w("w.ex.opt.drawDeck")
            if a == "pass" and len(option) == 1:
                return w("w.ex.opt.pass")
            if a == "stop" and len(option) == 1:
                return w("w.ex.opt.stop")
        except (KeyError, TypeError, ValueError, IndexError):
            pass
        return compact(option)

    def prompt_text(self, view: View) -> str | None:
        """The prompt's question from the view's structure (phase, a payment card by card), translated."""
        public = view.get("public") or {}
        if public.get("phase") == "draw":
            return w("w.ex.prompt.draw")
        if (view.get("private") or {}).get("picking"):
            return w("w.ex.prompt.pick")
        options = (view.get("prompt") or {}).get("options") or []
        return w("w.ex.prompt.moveOn") if any(o.get("a") == "stop" for o in options) else w("w.ex.prompt.move")

    # ---- the board ------------------------------------------------------------------------

    def body(self, view: View) -> RenderableType:
        """Turn line, track, players, cards on the table, the viewer's hand and the log."""
        public = view.get("public") or {}
        if "track" not in public:
            return super().body(view)
        parts: list[RenderableType] = [
            self.turn_line(view),
            self.track(view),
            self.players(view),
            self.table_cards(view),
        ]
        if view.get("private") is not None:
            parts.append(self.hand(view))
        parts.append(self.log(view))
        return Group(*parts)

    def turn_block(self, view: View) -> RenderableType | None:
        return self.turn_line(view) if "track" in (view.get("public") or {}) else None

    def yours(self, view: View) -> RenderableType | None:
        """The viewer's hand in a line or two (grouped by colour), their gold and the cards picked so far."""
        private = view.get("private")
        if private is None or "track" not in (view.get("public") or {}):
            return None
        hand: list[str] = list(private.get("hand") or [])
        text = Text(_("Your hand ({n} cards)").format(n=len(hand)) + ":", style="bold")
        for i, (colour, kinds) in enumerate(hand_groups(hand)):
            text.append(" " if i == 0 else "; ")
            text.append(w_or(f"w.ex.colour.{colour}", colour), style=CARD_STYLES.get(colour, ""))
            named = [(w_or(f"w.ex.kind.{k}", k), n) for k, n in kinds]
            text.append(" " + ", ".join(k if n == 1 else f"{k} ×{n}" for k, n in named))
        if not hand:
            text.append(" " + _("(no cards)"), style="dim")
        if "gold" in private:
            values = private.get("chest_values") or {}
            worth = [v for v, n in sorted(values.items()) for _ in range(int(n))]
            chests = " " + _("(chests worth {values})").format(values=", ".join(worth)) if worth else ""
            text.append("   " + _("your gold: {n}").format(n=private["gold"]) + chests)
        picking = private.get("picking")
        if picking:
            public = view.get("public") or {}
            cards = ", ".join(card_name(str(c)) for c in picking.get("cards") or []) or _("none yet")
            colour = figure_colour(public, picking.get("fig"))
            fig = w("w.ex.figure", colour=w_or(f"w.ex.colour.{colour}", colour))
            text.append("\n" + _("Paying for the {figure}, picked: {cards}").format(figure=fig, cards=cards))
        return text

    def turn_line(self, view: View) -> Text:
        """Whose turn, which phase, Kantshou's state and what moved this turn."""
        public = view["public"]
        if public.get("status") == "over" or view.get("result"):
            return Text(w("w.ex.cli.over", n=public.get("turns", "?")), style="bold")
        turn = public.get("turn")
        phase = str(public.get("phase"))
        phase_words = w(f"w.ex.cli.phase.{phase}") if phase in ("move", "draw") else phase
        kantshou = str(public.get("kantshou", "?"))
        text = Text.assemble(
            w("w.ex.cli.turn", n=int(public.get("turns", 0)) + 1) + " ",
            (seat_name(view, turn), "bold reverse" if turn == view.get("you") else "bold"),
            " " + w("w.ex.cli.toPlay", phase=phase_words),
            "  " + w("w.ex.cli.kantshou", state=w_or(f"w.ex.cli.k.{kantshou}", kantshou)),
        )
        moved = [w_or(f"w.ex.colour.{c}", c) for c in (figure_colour(public, f) for f in public.get("moved") or [])]
        if moved:
            text.append("  " + w("w.ex.cli.moved", figs=", ".join(moved)))
        if public.get("lightened"):
            text.append("  " + w("w.ex.cli.lightened"))
        return text

    def track(self, view: View) -> RenderableType:
        """The track in two halves: position, name, requirement, scoring value, chest and figures."""
        public = view["public"]
        spaces = public.get("track") or []
        chests = public.get("chests") or []
        on: dict[int, list[dict[str, Any]]] = {}
        for f in public.get("figures") or []:
            on.setdefault(int(f["pos"]), []).append(f)
        half = (len(spaces) + 1) // 2
        tables = []
        for chunk in (spaces[:half], spaces[half:]):
            t = Table(show_edge=False, pad_edge=False, box=None, collapse_padding=True, header_style="bold underline")
            t.add_column(_("space"))
            t.add_column(_("needs"))
            t.add_column(_("score"), justify="right")
            t.add_column(_("chest"), justify="right")
            t.add_column(_("figures"))
            for s in chunk:
                pos = int(s["pos"])
                chest = chests[pos] if pos < len(chests) else 0
                figs = Text()
                for f in on.get(pos, []):
                    if figs:
                        figs.append(" ")
                    colour = str(f.get("colour"))
                    figs.append(w_or(f"w.ex.colour.{colour}", colour), style=FIGURE_STYLES.get(colour, "bold"))
                    if f.get("seat") == view.get("you"):
                        figs.append("*", style="bold")
                t.add_row(
                    f"{pos:>2} {s.get('name') or ''}",
                    requirement_words(s.get("req")),
                    str(s["score"]) if s.get("score") is not None else "",
                    _("{n} gold").format(n=chest) if chest else "",
                    figs,
                )
            tables.append(t)
        title = Text(_("Track"), style="bold")
        title.append("  " + _("(* marks your figures)") if view.get("you") is not None else "", style="dim")
        return Group(title, Columns(tables, padding=(0, 3)))

    def players(self, view: View) -> Table:
        """Each player's cards in hand, chests, gold where public, figures and connection."""
        public = view["public"]
        private = view.get("private") or {}
        seats = view.get("seats") or []
        t = Table(title=_("Players"), title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
        for col, just in (
            ("", "left"),
            (N_("seat"), "right"),
            (N_("player"), "left"),
            (N_("cards"), "right"),
            (N_("chests"), "right"),
            (N_("gold"), "right"),
            (N_("figures"), "left"),
            (N_("online"), "left"),
        ):
            t.add_column(_(col) if col else col, justify=just)  # type: ignore[arg-type]
        figs_of: dict[int, list[dict[str, Any]]] = {}
        for f in public.get("figures") or []:
            figs_of.setdefault(int(f["seat"]), []).append(f)
        for p in public.get("players") or []:
            s = int(p["seat"])
            if "gold" in p:
                gold = str(p["gold"])
            elif s == view.get("you") and "gold" in private:
                gold = f"{private['gold']} " + _("(secret)")
            else:
                gold = "?"
            figs = Text()
            for f in figs_of.get(s, []):
                if figs:
                    figs.append(", ")
                colour = str(f.get("colour"))
                figs.append(w_or(f"w.ex.colour.{colour}", colour), style=FIGURE_STYLES.get(colour, "bold"))
                figs.append(" " + _("on {n}").format(n=f["pos"]))
            connected = seats[s].get("connected") if s < len(seats) else None
            t.add_row(
                "▶" if s == public.get("turn") and not view.get("result") else "",
                str(s + 1),
                seat_name(view, s, guest=True),
                str(p.get("hand", "?")),
                str(p.get("chests", "?")),
                gold,
                figs,
                _("yes") if connected else _("no"),
            )
        return t

    def table_cards(self, view: View) -> Text:
        """The five face-up cards (numbered as in the draw options), the deck and the discard pile."""
        public = view["public"]
        text = Text(_("Face-up cards:") + " ", style="bold")
        for i, card in enumerate(public.get("display") or [], 1):
            text.append(f" {i}:")
            text.append_text(card_text(card))
        discard = public.get("discard") or []
        size = len(discard) if isinstance(discard, list) else int(discard)
        text.append("\n" + _("Deck: {n} cards.  Discard pile: {m} cards").format(n=public.get("deck", "?"), m=size))
        if isinstance(discard, list) and discard:
            text.append(" (" + _("top") + " ")
            text.append_text(card_text(discard[-1]))
            text.append(")")
        text.append(".")
        return text

    def hand(self, view: View) -> Text:
        """The viewer's hand grouped by colour and kind, their gold, and cards picked so far."""
        private = view.get("private") or {}
        hand: list[str] = list(private.get("hand") or [])
        text = Text(_("Your hand ({n} cards)").format(n=len(hand)), style="bold")
        if "gold" in private:
            values = private.get("chest_values") or {}
            worth = [v for v, n in sorted(values.items()) for _ in range(int(n))]
            chests = " " + _("(chests worth {values})").format(values=", ".join(worth)) if worth else ""
            text.append("   " + _("your gold: {n}").format(n=private["gold"]) + chests)
        for colour, kinds in hand_groups(hand):
            text.append("\n  ")
            text.append(f"{w_or(f'w.ex.colour.{colour}', colour):<7}", style=CARD_STYLES.get(colour, ""))
            text.append(" " + ", ".join(k if n == 1 else f"{k} ×{n}" for k, n in kinds))
        if not hand:
            text.append("\n  " + _("(no cards)"), style="dim")
        picking = private.get("picking")
        if picking:
            public = view.get("public") or {}
            cards = ", ".join(card_name(str(c)) for c in picking.get("cards") or []) or _("none yet")
            colour = figure_colour(public, picking.get("fig"))
            fig = w("w.ex.figure", colour=w_or(f"w.ex.colour.{colour}", colour))
            text.append("\n  " + _("Paying for the {figure}, picked: {cards}").format(figure=fig, cards=cards))
        return text

    def event(self, view: View, ev: dict[str, Any]) -> str:
        return event_words(view, ev)

    def result(self, view: View) -> RenderableType:
        """Scores (gold) and winners; the tie-break is the furthest space reached; the gold by where it came from
        (the result's `breakdown`) and the chests every seat holds."""
        return Group(result_table(view, tiebreak_label=N_("furthest space")), *breakdown_parts(view))


#: the result's breakdown keys and their game words (the browser's columns)
BREAKDOWN = (
    ("start", "w.ex.bd.start"),
    ("chests", "w.ex.bd.chests"),
    ("kantshou", "w.ex.bd.kantshou"),
    ("final", "w.ex.bd.daidu"),
    ("lighten", "w.ex.bd.lighten"),
)


def breakdown_parts(view: View) -> list[RenderableType]:
    """The final scoring per seat, best first: the gold by source (when the server counted it), the total and
    the chests held by value."""
    res = view.get("result") or {}
    parts: list[Any] = list(res.get("breakdown") or [])
    if not parts:
        return []
    scores: list[Any] = list(res.get("scores") or [])
    ranking: list[int] = [s for s in (res.get("ranking") or range(len(parts))) if s < len(parts)]
    sources = [(k, word) for k, word in BREAKDOWN if all(isinstance((p or {}).get(k), int) for p in parts)]
    table = Table(title=w("w.bd.title"), title_justify="left", title_style="bold", show_edge=False)
    table.add_column(w("w.bd.player"))
    for _key, word in sources:
        table.add_column(w(word), justify="right")
    table.add_column(w("w.ex.bd.total"), justify="right")
    table.add_column(w("w.ex.bd.held"))
    for s in ranking:
        b = parts[s] or {}
        cv = b.get("chest_values") or {}
        held = ", ".join(f"{cv[k]}×{k}" for k in ("3", "2", "1") if cv.get(k)) or "0"
        total = str(scores[s]) if s < len(scores) else ""
        table.add_row(seat_name(view, s), *(str(b[k]) for k, _word in sources), total, held)
    return [table]


def event_words(view: View, ev: dict[str, Any]) -> str:
    """One log event of the game in words, as the browser says it (compact JSON for an unknown event)."""
    public = view.get("public") or {}
    kind = ev.get("ev")
    who = seat_name(view, ev.get("seat")) if "seat" in ev else ""

    def log(key: str, **params: Any) -> str:
        return w(f"w.ex.log.{key}", who=who, **params).rstrip(".")

    def fig(f: Any) -> str:
        colour = figure_colour(public, f)
        return w("w.ex.figure", colour=w_or(f"w.ex.colour.{colour}", colour))

    try:
        if kind in ("move", "lighten"):
            extra = f", {w('w.ex.log.chest', n=ev['chest'])}" if ev.get("chest") else ""
            extra += f" {w('w.ex.log.caught')}" if ev.get("caught_up") else ""
            to = _space_name(public, int(ev["to"]))
            if kind == "lighten":
                return log("lighten", fig=fig(ev.get("fig")), to=to, extra=extra)
            cards = ", ".join(card_name(str(c)) for c in ev.get("paid") or [])
            return log("move", fig=fig(ev.get("fig")), to=to, cards=cards, extra=extra)
        if kind == "pass":
            return log("pass")
        if kind == "stop":
            return log("stop")
        if kind == "draw":
            if ev.get("slot") is None:
                return log("drawDeck")
            return log("drawFace", card=card_name(str(ev["card"])) if ev.get("card") else w("w.empty"))
        if kind == "take":
            return log("take", **{"from": seat_name(view, ev.get("from_seat"))})
        if kind == "reshuffle":
            return w("w.ex.log.reshuffle", n=ev.get("cards")).rstrip(".")
        if kind in ("kantshou_scoring", "final_scoring"):
            paid = ", ".join(f"{seat_name(view, p.get('seat'))} {p['gold']}" for p in ev.get("paid") or [])
            key = "w.ex.log.kantshou" if kind == "kantshou_scoring" else "w.ex.log.final"
            return w(key, paid=paid or w("w.ex.log.nobody")).rstrip(".")
        if kind == "stalemate":
            return w("w.ex.log.stalemate").rstrip(".")
    except (KeyError, TypeError, ValueError):
        pass
    return compact({k: v for k, v in ev.items() if k != "n"})


RENDERER = register(ExpeditionRenderer())
