"""What the Voyages and Marco Polo II terminal renderers share: seat styles, resources, contracts and city
cards in words, dice (a die in a sentence, a tray of dice, the dice placed on a space), and the renderer
(`DiceRenderer`): the turn line, what is being asked, the Khan's favor ladder, the player boards, your board,
the log, the result, the prompt's question and the option labels both games have.

Owns: these widgets and words. Must not: know either game's spaces or rules; a game passes its own
resource words (`Words(own=...)`) for the kinds only it has, and its renderer fills the hooks
(`DiceRenderer.own_label`, `phase_words`, `pending_words`, `held_words`, `goal_text`, ...) for what is its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clients.cli.games.common import LogRenderer
from clients.cli.i18n import N_, _, w, w_or
from clients.cli.render import Move, View, compact, result_table, seat_name

SEAT_STYLES: tuple[str, ...] = ("bold red", "bold blue", "bold green", "bold yellow")
GOODS: tuple[str, ...] = ("pepper", "silk", "gold", "jade")


def seat_style(seat: int | None) -> str:
    return SEAT_STYLES[seat % len(SEAT_STYLES)] if isinstance(seat, int) else ""


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


COMMON: tuple[str, ...] = ("coins", "camels", "pepper", "silk", "gold", "jade", "vp", "move", "black_die")


class Words:
    """Amounts, bundles and contracts in words (`clients/words/`, the browser's words); `own` adds a game's kinds."""

    def __init__(
        self,
        own: dict[str, Callable[[int], str]] | None = None,
        arrow: str = "→",
        cards: Callable[[dict[str, Any]], str | None] | None = None,
    ) -> None:
        self.own = own or {}
        self.arrow = arrow
        self.cards = cards or (lambda card: None)

    def amount(self, key: str, n: int) -> str:
        if key in self.own:
            return self.own[key](n)
        if key in COMMON:
            return w(f"w.res.{key}", n=n)
        return f"{n} {key}"

    def bundle(self, items: dict[str, Any] | None) -> str:
        if not items:
            return w("w.nothing")
        return " + ".join(self.amount(k, int(n)) for k, n in items.items())

    def contract(self, c: dict[str, Any] | None) -> str:
        if not c:
            return "—"
        return w("w.contract.words", cost=self.bundle(c.get("cost")), reward=self.bundle(c.get("reward")))

    def card(self, card: dict[str, Any] | None) -> str:
        """A city card's effect in words: the kinds both games have here, a game's own kinds from `cards`
        (None for a kind it does not know either: the card as compact JSON)."""
        if not card:
            return "—"
        kind = card.get("kind")
        if kind == "per_pip":
            return w("w.card.perPip", reward=self.bundle(card.get("reward")))
        if kind == "count":
            key = "w.card.perPost" if card.get("counts") == "posts" else "w.card.perContract"
            return w(key, reward=self.bundle(card.get("reward")))
        if kind == "trade":
            return w("w.card.trade", cost=self.bundle(card.get("cost")), reward=self.bundle(card.get("reward")))
        if kind == "either":
            ways = [self.way(x) for x in card.get("ways") or []]
            return w("w.card.either", ways=f" {w('w.orShort')} ".join(ways))
        words = self.cards(card)
        return compact(card) if words is None else words

    def way(self, way: dict[str, Any]) -> str:
        """One way of an either-or city card: `pay …, get …`."""
        return w("w.card.way", cost=self.bundle(way.get("cost")), reward=self.bundle(way.get("reward")))


def die_words(kind: str, value: int) -> str:
    """A die in words, as the browser says it: `your 4 die`, `the black 3 die`, `your die (any value)`."""
    kind_words = w(f"w.diekind.{kind}")
    if not int(value):
        return w("w.die.ownAny" if kind == "own" else "w.die.any", kind=kind_words)
    return w("w.die.own" if kind == "own" else "w.die.other", v=value, kind=kind_words)


def option_die(option: dict[str, Any]) -> str:
    """The die an option names (`kind`, `value`) in words."""
    return die_words(str(option.get("kind", "own")), int(option.get("value", 0) or 0))


def the_die(kind: str, value: int) -> str:
    """A die of yours as an object: `your 4 die`, `the black 3 die`, `your die (any value)`."""
    return die_words(kind, value)


def a_die(kind: str, value: int) -> str:
    """Someone's die in the log: `a 4`, `a black 3`."""
    if not int(value):
        return "a die"
    return f"a {value}" if kind == "own" else f"a {kind} {value}"


def dice_text(dice: list[list[Any]] | None, seat: int | None) -> Text:
    """Dice as `[4][4][6]`: own dice in the seat's colour, black reversed (marked b), white (w) bold, neutral dim."""
    text = Text()
    for kind, value in dice or []:
        face = "?" if int(value) == 0 else str(value)
        if kind == "own" and seat is not None:
            style = seat_style(seat)
        elif kind == "black":
            style = "reverse"
        elif kind == "neutral":
            style = "dim"
        else:
            style = "bold"
        text.append(f"[{face}]", style=style)
        if kind not in ("own", "neutral"):
            text.append(kind[0], style="dim")
    return text


def placement_text(view: View, pl: dict[str, Any]) -> Text:
    """One placement on a space: whose dice (`neutral` for the board's own) and the dice."""
    seat = pl.get("seat")
    text = Text()
    if seat is None:
        text.append(w("w.diekind.neutral") + " ", style="dim")
    else:
        text.append(seat_name(view, seat, you=False), style=seat_style(seat))
        text.append(" ")
    text.append_text(dice_text(pl.get("dice"), seat))
    return text


def join_texts(parts: list[Text], sep: str = ", ") -> Text:
    out = Text()
    for i, p in enumerate(parts):
        if i:
            out.append(sep)
        out.append_text(p)
    return out


def my_pending(view: View) -> dict[str, Any] | None:
    """The viewer's own pending item of a dice-placement game (a bonus action or a choice it must make)."""
    you = view.get("you")
    for item in (view.get("public") or {}).get("pending") or []:
        if item.get("seat") == you:
            return item  # type: ignore[no-any-return]
    return None


def dice_prompt_text(view: View, game: str) -> str:
    """A dice-placement game's question from the view's structure (phase, the viewer's pending item), in the
    current language; `game` is the catalogue's prefix for that game's own kinds (`vo`, `kh`)."""
    public = view.get("public") or {}
    if public.get("phase") == "draft":
        return w("w.prompt.character")
    pending = my_pending(view)
    if pending:
        kind = str(pending.get("kind"))
        fallback = str((view.get("prompt") or {}).get("text", ""))
        return w_or(f"w.{game}.prompt.{kind}", w_or(f"w.prompt.{kind}", fallback))
    return w("w.prompt.bonusOrEnd") if public.get("main_done") else w("w.prompt.space")


def my_player(view: View) -> dict[str, Any] | None:
    """The viewer's own player record (None for a spectator)."""
    you = view.get("you")
    players = (view.get("public") or {}).get("players") or []
    return players[you] if isinstance(you, int) and 0 <= you < len(players) else None


def placements_text(view: View, placements: list[dict[str, Any]] | None) -> Text:
    """Every placement on a space, `; ` between them."""
    return join_texts([placement_text(view, pl) for pl in placements or []], "; ")


def khan_ladder(view: View, khan: list[dict[str, Any]] | None) -> Text:
    """Khan's favor: its four places, each die at least the last (`empty` where no one has placed yet)."""
    khan = khan or []
    ladder = Text()
    for i in range(4):
        if i:
            ladder.append(" ≤ ")
        ladder.append_text(placement_text(view, khan[i]) if i < len(khan) else Text(_("empty"), style="dim"))
    return ladder


def figure_texts(view: View, figures: list[tuple[int, int]]) -> list[Text]:
    """The figures on one location (seat, figure): `ann #2*` (a number when the seat has several, `*` yours)."""
    players = (view.get("public") or {}).get("players") or []
    out = []
    for s, f in figures:
        many = len(players[s].get("figures") or []) > 1
        label = seat_name(view, s, you=False) + (f" #{f + 1}" if many else "")
        if s == view.get("you"):
            label += "*"
        out.append(Text(label, style=seat_style(s)))
    return out


def pieces_at(
    public: dict[str, Any], key: Callable[[Any], Any]
) -> tuple[dict[Any, list[int]], dict[Any, list[tuple[int, int]]]]:
    """Where the trading posts (seats by location) and the figures ((seat, figure) by location) are."""
    posts: dict[Any, list[int]] = {}
    figures: dict[Any, list[tuple[int, int]]] = {}
    for p in public.get("players") or []:
        s = int(p["seat"])
        for c in p.get("posts") or []:
            posts.setdefault(key(c), []).append(s)
        for f, loc in enumerate(p.get("figures") or []):
            figures.setdefault(key(loc), []).append((s, f))
    return posts, figures


def city_card(public: dict[str, Any], card_id: str) -> dict[str, Any] | None:
    """A city card on the board by its id."""
    for cc in public.get("city_cards") or []:
        if (cc.get("card") or {}).get("id") == card_id:
            return cc["card"]  # type: ignore[no-any-return]
    return None


def spaces_table(placed: str) -> Table:
    """The action spaces' table: space, dice needed, what it gives and the dice placed (`placed` its heading,
    a message of the terminal's catalogue)."""
    t = Table(title=_("Action spaces"), title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
    t.add_column(_("space"))
    t.add_column(_("dice"), justify="right")
    t.add_column(_("gives"))
    t.add_column(_(placed))
    return t


class CharacterBoard:
    """Lookups into a game's constant board (`data`): its routes, and its characters by name and ability
    (catalogue keys `w.<prefix>.char.<id>`, `.ability.`)."""

    prefix = ""

    def __init__(self, data: dict[str, Any]) -> None:
        self.edges: list[dict[str, Any]] = list(data.get("edges") or [])
        self.characters: dict[str, Any] = dict(data.get("characters") or {})

    def character(self, cid: str | None) -> str:
        if not cid:
            return "—"
        return w_or(f"w.{self.prefix}.char.{cid}", str((self.characters.get(cid) or {}).get("name") or cid))

    def ability(self, cid: str | None) -> str:
        return w_or(f"w.{self.prefix}.ability.{cid}", str((self.characters.get(cid or "") or {}).get("ability", "")))


#: the players' table's headings of the resources (marked for the catalogue here, translated where shown)
RESOURCE_HEADINGS = {
    "coins": N_("coins"),
    "camels": N_("camels"),
    "pepper": N_("pepper"),
    "silk": N_("silk"),
    "gold": N_("gold"),
    "jade": N_("jade"),
    "vp": N_("VP"),
}


class DiceRenderer(LogRenderer):
    """The terminal renderer of a dice-placement game (Voyages, Marco Polo II); a game fills the hooks."""

    #: the catalogue's prefix of the game's own words (`vo`, `kh`)
    prefix = ""
    #: the key of the constant board in `public` (the body waits for it)
    board_key = "board"
    #: the resources shown in the players' table, in order (`vp` shown as VP)
    resources: tuple[str, ...] = ()
    #: the heading of the city cards' list (a message of the terminal's catalogue, as the two below)
    cards_title = ""
    #: the heading of what each player holds, under the players' table
    held_title = ""
    #: the goal card offer's heading, which says how many a player keeps
    offer_title = N_("Goal cards offered (keep 1):")
    #: the final scoring's columns by breakdown key, headed by the game word `w.<prefix>.bd.<key>` or by the
    #: word `breakdown_labels` names for that key
    breakdown: tuple[str, ...] = ()
    breakdown_labels: dict[str, str] = {}  # noqa: RUF012
    #: the pending kinds whose `stop` option has its own words (`w.kh.opt.stop.<kind>`)
    stop_kinds: tuple[str, ...] = ("travel", "card")
    #: the game's words for amounts, bundles and contracts
    words: Words = Words()

    # ---- hooks --------------------------------------------------------------------------------

    #: the game's lookups into its constant board (names of locations, spaces, characters)
    board_class: type[CharacterBoard] = CharacterBoard

    def board(self, public: dict[str, Any]) -> Any:
        return self.board_class(public)

    def contract_named(self, public: dict[str, Any], cid: Any) -> str:
        """A contract by what it asks and gives."""
        raise NotImplementedError

    def own_label(
        self, view: View, option: Move, board: Any, me: dict[str, Any], pending: dict[str, Any]
    ) -> str | None:
        """An option only this game has in words (None: one of the options both games have)."""
        return None

    def own_die(self, me: dict[str, Any], option: Move, die: str) -> str:
        """The die of a `die` option in words (a game may name it otherwise)."""
        return die

    def space_label(self, view: View, option: Move, board: Any, me: dict[str, Any]) -> str:
        """A `space` option: the space, the dice it needs and (a city card's space) the card."""
        raise NotImplementedError

    def route_cost(self, board: Any, here: Any, to: Any) -> str:
        """The extra cost of the route from `here` to `to` in words (empty when free)."""
        raise NotImplementedError

    def card_way(self, public: dict[str, Any], card_id: str, way: int) -> dict[str, Any] | None:
        """The way of an either-or city card that a `times` option names (None: no way to name)."""
        return None

    def phase_words(self, view: View, phase: Any) -> str:
        """The turn line's words for a phase other than `play`."""
        return str(phase)

    def turn_tail(self, view: View) -> tuple[str, str]:
        """The turn line's end: who is first this round, how many black dice are left."""
        raise NotImplementedError

    def asking_head(self, view: View, board: Any) -> Text:
        """What is offered to everybody before the pending choices: the characters of a draft, each with its
        ability."""
        text = Text()
        draft = (view.get("public") or {}).get("draft")
        if draft and draft.get("offer"):
            text.append(w("w.charsOffered") + ":", style="bold")
            for cid in draft["offer"]:
                text.append("\n  ")
                text.append(board.character(cid), style="bold")
                ability = board.ability(cid)
                if ability:
                    text.append(": " + ability)
        return text

    def pending_words(self, view: View, board: Any, item: dict[str, Any], who: str) -> str | None:
        """A pending item of this game's own kinds in words (None: the common words)."""
        return None

    def held_words(self, view: View, board: Any, p: dict[str, Any]) -> str:
        """What a player holds (contracts and, in a game, more), after the player's name."""
        raise NotImplementedError

    def goal_text(self, board: Any, g: dict[str, Any], posts: set[Any] | None) -> str:
        """A goal card in words (`posts`: the player's trading posts, to tick the cities reached)."""
        raise NotImplementedError

    def posts_of(self, p: dict[str, Any]) -> set[Any] | None:
        """A player's trading posts, for ticking the cities of the goal cards (None: no ticks)."""
        return None

    def your_board_more(self, view: View, board: Any, text: Text) -> None:
        """What the viewer's own board shows after the goal cards."""

    def locations(self, view: View, board: Any) -> RenderableType:
        """The map's locations: what lies on each, who has posts and figures there."""
        raise NotImplementedError

    def routes(self, view: View, board: Any) -> RenderableType:
        """The map's routes with their costs."""
        raise NotImplementedError

    def action_spaces(self, view: View, board: Any) -> RenderableType:
        """The action spaces with the dice placed on them."""
        raise NotImplementedError

    def contracts(self, view: View, board: Any) -> RenderableType:
        """The contracts to take."""
        raise NotImplementedError

    def card_place(self, board: Any, cc: dict[str, Any]) -> str:
        """Where a city card lies, in words."""
        raise NotImplementedError

    def card_used(self, view: View, cc: dict[str, Any], text: Text) -> None:
        """Whether (and by whom) a city card is used, after its words."""

    def city_cards_more(self, view: View, text: Text) -> None:
        """What the city cards' list shows after the cards."""

    # ---- the board ----------------------------------------------------------------------------

    def city_cards(self, view: View, board: Any) -> RenderableType:
        """The city cards: where each lies, what it does, whether it is used."""
        text = Text(_(self.cards_title), style="bold")
        for cc in view["public"].get("city_cards") or []:
            text.append(f"\n  {self.card_place(board, cc)}: {self.words.card(cc.get('card') or {})}")
            self.card_used(view, cc, text)
        self.city_cards_more(view, text)
        return text

    # ---- option labels ------------------------------------------------------------------------

    def label(self, view: View, option: Move) -> str:
        """A prompt option in words (the browser's words, `clients/words/`)."""
        public = view.get("public") or {}
        board = self.board(public)
        me = my_player(view) or {}
        pending = my_pending(view) or {}
        jade = option.get("jade")
        if isinstance(jade, dict):  # the same move paying coins or camels with jade (Marco Polo II)
            plain = {k: v for k, v in option.items() if k != "jade"}
            what = self.words.bundle({k: n for k, n in jade.items() if n})
            return w("w.opt.withJade", move=self.label(view, plain), what=what)
        try:
            words = self.own_label(view, option, board, me, pending)
            if words is None:
                words = self.common_label(view, option, board, me, pending)
            if words is not None:
                return words
        except (KeyError, TypeError, ValueError, IndexError):
            pass
        return compact(option)

    def common_label(  # noqa: C901
        self, view: View, option: Move, board: Any, me: dict[str, Any], pending: dict[str, Any]
    ) -> str | None:
        """An option both games have in words (None for one this does not know)."""
        public = view.get("public") or {}
        a = option.get("a")
        die = option_die(option)
        if a == "character":  # named with its ability: the draft is chosen from the options
            cid = str(option["character"])
            ability = board.ability(cid)
            named = w("w.opt.character", name=board.character(cid))
            return f"{named}: {ability}" if ability else named
        if a == "space":
            return self.space_label(view, option, board, me)
        if a == "die":
            die = self.own_die(me, option, die)
            if pending.get("kind") == "dice":
                return w("w.opt.dieOn", die=die, space=board.space(str(pending.get("space"))))
            return w("w.opt.die", die=die)
        if a == "cancel":
            return w("w.opt.cancel")
        if a == "fulfil":
            return w("w.opt.fulfil", contract=self.contract_named(public, option["contract"]))
        if a == "reroll":
            return w("w.opt.reroll", die=die)
        if a == "adjust":
            return w("w.opt.adjust", die=die, to=int(option["value"]) + int(option["by"]))
        if a == "end":
            return w("w.opt.end")
        if a == "good":
            return w("w.opt.good", good=self.words.amount(str(option["good"]), 1))
        if a == "comp":
            coins = int(option["coins"])
            camels = int(pending.get("amount", coins)) - coins
            return w("w.opt.comp", coins=self.words.amount("coins", coins), camels=self.words.amount("camels", camels))
        if a == "relocate":
            return w("w.opt.relocate", city=board.name(option["from"]))
        if a == "done":
            return w("w.opt.doneContracts")
        if a == "step":
            figs = me.get("figures") or []
            fig = int(option["fig"])
            here = figs[fig] if 0 <= fig < len(figs) else None
            key = "w.opt.stepFig" if len(figs) > 1 else "w.opt.step"
            words = w(key, fig=fig + 1, **{"from": board.name(here), "to": board.name(option["to"])})
            cost = self.route_cost(board, here, option["to"]) if here is not None else ""
            return f"{words} ({w('w.route', cost=cost)})" if cost else words
        if a == "stop":
            kind = str(pending.get("kind"))
            return w(f"w.kh.opt.stop.{kind}") if kind in self.stop_kinds else w("w.opt.stop")
        if a == "times":
            text = w("w.opt.times", n=int(option["n"]))
            way = self.card_way(public, str(pending.get("card") or ""), int(option["way"]))
            return f"{text} ({self.words.way(way)})" if way else text
        return None

    def prompt_text(self, view: View) -> str | None:
        """The prompt's question from the view's structure (phase, your pending item), in the current language."""
        return dice_prompt_text(view, self.prefix)

    def body(self, view: View) -> RenderableType:
        public = view.get("public") or {}
        if self.board_key not in public or "players" not in public:
            return super().body(view)
        board = self.board(public)
        parts: list[RenderableType] = [self.turn_line(view), self.asking(view)]
        parts.append(self.locations(view, board))
        parts.append(self.routes(view, board))
        parts.append(self.action_spaces(view, board))
        parts.append(self.contracts(view, board))
        parts.append(self.city_cards(view, board))
        parts.append(self.players(view))
        if view.get("private") is not None:
            parts.append(self.your_board(view))
        parts.append(self.log(view))
        return Group(*parts)

    def turn_block(self, view: View) -> RenderableType | None:
        public = view.get("public") or {}
        return self.turn_line(view) if self.board_key in public and "players" in public else None

    def now(self, view: View) -> RenderableType | None:
        public = view.get("public") or {}
        if self.board_key not in public or "players" not in public or view.get("result"):
            return None
        options = (view.get("prompt") or {}).get("options") or []
        drafting = any(o.get("a") == "character" for o in options)  # the options name the characters offered
        asked = self.asking(view, head=not drafting)
        return asked if asked.plain.strip() else None

    def yours(self, view: View) -> RenderableType | None:
        """The viewer's character, resources and dice in a line, then what they hold (contracts, ...)."""
        public = view.get("public") or {}
        me = my_player(view)
        if me is None or self.board_key not in public:
            return None
        board = self.board(public)
        seat = me.get("seat")
        s = seat if isinstance(seat, int) else int(view.get("you") or 0)
        text = Text(seat_name(view, s), style=seat_style(s))
        if me.get("character"):
            text.append(" · " + board.character(me.get("character")))
        text.append(" · " + ", ".join(self.words.amount(k, int(me.get(k, 0) or 0)) for k in self.resources))
        if me.get("dice"):
            text.append(" · ")
            text.append_text(dice_text(me.get("dice"), s))
        text.append("\n")
        text.append(_(self.held_title), style="bold")
        text.append(self.held_words(view, board, me))
        return text

    def turn_line(self, view: View) -> Text:
        """Round, phase, whose turn, the first player and the black dice left."""
        public = view["public"]
        if public.get("phase") == "over" or view.get("result"):
            return Text(w("w.kh.over"), style="bold")
        phase = public.get("phase")
        text = Text(w("w.st.round", round=public.get("round", "?")) + "  ", style="bold")
        if phase == "play":
            turn = public.get("turn")
            text.append(seat_name(view, turn), style="bold reverse" if turn == view.get("you") else "bold")
            text.append(" " + w("w.kh.cli.toPlayDone" if public.get("main_done") else "w.kh.cli.toPlay"))
        else:
            text.append(self.phase_words(view, phase))
        first, black = self.turn_tail(view)
        text.append("  " + first)
        text.append("  " + black)
        return text

    def asking(self, view: View, *, head: bool = True) -> Text:
        """What is offered to everybody (`head`) and what the pending choices are (public), one line each."""
        public = view["public"]
        board = self.board(public)
        text = self.asking_head(view, board) if head else Text()
        for item in public.get("pending") or []:
            who = seat_name(view, item.get("seat"))
            what = self.pending_words(view, board, item, who)
            if what is None:
                what = self.common_pending(item, who)
            if text:
                text.append("\n")
            text.append(w("w.now") + " ", style="bold")
            text.append(what)
        return text

    def common_pending(self, item: dict[str, Any], who: str) -> str:
        """A pending item both games have in words; another as `choosing` the kind's words (`w.<prefix>.pend.`,
        Marco Polo II's, or `a choice of the action`)."""
        kind = str(item.get("kind"))
        if kind == "travel":
            return w(f"w.{self.prefix}.now.travel", who=who, steps=item.get("steps"), max=item.get("max"))
        if kind == "comp":
            return w("w.kh.now.comp", who=who, n=item.get("amount"))
        pend = w_or(f"w.{self.prefix}.pend.{kind}", w_or(f"w.kh.pend.{kind}", w("w.kh.pend.any")))
        return w("w.kh.now.other", who=who, what=pend)

    def players(self, view: View) -> Group:
        """Each player's board (character, resources, VP, posts, dice, contracts done), then what each holds."""
        public = view["public"]
        board = self.board(public)
        seats = view.get("seats") or []
        t = Table(title=_("Players"), title_justify="left", title_style="bold", show_edge=False, pad_edge=False)
        numeric = tuple(RESOURCE_HEADINGS.get(r, r) for r in self.resources)
        columns = ("", N_("player"), N_("character"), *numeric)
        columns += (N_("posts (left)"), N_("dice"), N_("done"), N_("online"))
        for col in columns:
            t.add_column(_(col) if col else col, justify="right" if col in numeric or col == "done" else "left")
        held = Text(_(self.held_title), style="bold")
        for p in public.get("players") or []:
            s = int(p["seat"])
            connected = seats[s].get("connected") if s < len(seats) else None
            t.add_row(
                "▶" if s == public.get("turn") and not view.get("result") else "",
                Text(seat_name(view, s, guest=True), style=seat_style(s)),
                board.character(p.get("character")),
                *(str(p.get(k, "?")) for k in self.resources),
                f"{len(p.get('posts') or [])} ({p.get('posts_left', '?')})",
                dice_text(p.get("dice"), s),
                str(p.get("completed", 0)),
                _("yes") if connected else _("no"),
            )
            held.append("\n  ")
            held.append(seat_name(view, s), style=seat_style(s))
            held.append(self.held_words(view, board, p))
        return Group(t, held)

    def your_board(self, view: View) -> Text:
        """The viewer's own character, goal cards (secret to others) and goal card offer."""
        board = self.board(view["public"])
        private = view.get("private") or {}
        me = my_player(view) or {}
        char = me.get("character")
        text = Text(_("Your board"), style="bold")
        if char:
            named = _("Character: {name}: {ability}").format(name=board.character(char), ability=board.ability(char))
            text.append("\n  " + named)
        posts = self.posts_of(me)
        goals = private.get("goals") or []
        text.append("\n  " + _("Your goal cards (secret):") + " ")
        if not goals:
            text.append(_("none yet"), style="dim")
        for g in goals:
            text.append("\n    " + self.goal_text(board, g, posts))
        offer = private.get("goal_offer") or []
        if offer:
            offered = "; ".join(self.goal_text(board, g, None) for g in offer)
            text.append("\n  " + _(self.offer_title) + " " + offered)
        self.your_board_more(view, board, text)
        return text

    def result(self, view: View) -> RenderableType:
        """Scores with the camel tie-break, then every seat's breakdown and kept goal cards."""
        res = view.get("result") or {}
        parts: list[RenderableType] = [result_table(view, tiebreak_label=N_("camels"))]
        breakdown = res.get("breakdown") or []
        if breakdown:
            t = Table(title=w("w.cli.finalScoring"), title_justify="left", title_style="bold", show_edge=False)
            t.add_column(w("w.bd.player"))
            for key in self.breakdown:
                t.add_column(w(self.breakdown_labels.get(key, f"w.{self.prefix}.bd.{key}")), justify="right")
            for s, b in enumerate(breakdown):
                t.add_row(seat_name(view, s), *(str(b.get(k, 0)) for k in self.breakdown))
            parts.append(t)
        public = view.get("public") or {}
        board = self.board(public)
        goals = Text()
        for p in public.get("players") or []:
            if p.get("goals"):
                posts = self.posts_of(p)
                goals.append(w("w.cli.goalsOf", who=seat_name(view, p["seat"])) + " ")
                goals.append("; ".join(self.goal_text(board, g, posts) for g in p["goals"]) + "\n")
        if goals:
            parts.append(goals)
        return Group(*parts)


#: the common words (resource kinds both games have), for the shared option labels
WORDS = Words()


def event_sentence(
    view: View,
    ev: dict[str, Any],
    board: Any,
    own: Callable[[str], str | None],
    named: Callable[[Any], str],
    die: Callable[[Any, Any], str],
) -> str:
    """One log event in words, as the browser says it: `own(who)` for the game's own events (None: not one of
    them), then the events both games say alike (`named` a contract, `die` a placed die); compact JSON for an
    event this client does not know."""
    kind = ev.get("ev")
    who = seat_name(view, ev.get("seat")) if "seat" in ev else ""

    def common(key: str, **params: Any) -> str:
        return w(key, who=who, **params).rstrip(".")

    try:
        words = own(who)
        if words is not None:
            return words
        if kind == "character":
            return common("w.log.character", name=board.character(ev.get("character")))
        if kind == "place":
            dice = ", ".join(die(k, v) for k, v in ev["dice"])
            space = board.space(str(ev["space"]))
            if ev.get("fee"):
                return common("w.log.placeFee", dice=dice, space=space, fee=WORDS.amount("coins", int(ev["fee"])))
            return common("w.log.place", dice=dice, space=space)
        if kind in ("step", "relocate"):
            return common(f"w.log.{kind}", **{"from": board.name(ev["from"]), "to": board.name(ev["to"])})
        if kind == "post":
            city = board.name(ev["city"])
            if ev.get("vp"):
                return common("w.kh.log.postVp", nth=ev.get("nth"), city=city, vp=ev["vp"])
            return common("w.kh.log.post", nth=ev.get("nth"), city=city)
        if kind == "take_contract":
            return common("w.log.took", what=named(ev.get("contract")))
        if kind == "fulfil":
            return common("w.log.fulfilled", what=named(ev.get("contract")))
        if kind == "black_die":
            return common("w.log.blackDie", v=ev["value"])
        if kind == "end_turn":
            return common("w.log.endTurn")
        if kind == "final_scoring":
            scores = ", ".join(f"{seat_name(view, s)} {v}" for s, v in enumerate(ev.get("scores") or []))
            return w("w.log.final", scores=scores).rstrip(".")
    except (KeyError, TypeError, ValueError, IndexError):
        pass
    return compact({k: v for k, v in ev.items() if k != "n"})
