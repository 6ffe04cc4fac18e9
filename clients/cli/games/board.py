"""What the Voyages and Marco Polo II terminal renderers share: seat styles, resources and contracts in words,
dice (a die in a sentence, a tray of dice, the dice placed on a space).

Owns: these widgets and words. Must not: know either game's spaces or rules; a game passes its own
resource words (`Words(own=...)`) for the kinds only it has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text

from clients.cli.i18n import w, w_or
from clients.cli.render import View, seat_name

SEAT_STYLES: tuple[str, ...] = ("bold red", "bold blue", "bold green", "bold yellow")
GOODS: tuple[str, ...] = ("pepper", "silk", "gold", "jade")


def seat_style(seat: int | None) -> str:
    return SEAT_STYLES[seat % len(SEAT_STYLES)] if isinstance(seat, int) else ""


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


COMMON: tuple[str, ...] = ("coins", "camels", "pepper", "silk", "gold", "jade", "vp", "move", "black_die")


class Words:
    """Amounts, bundles and contracts in words (`clients/words/`, the browser's words); `own` adds a game's kinds."""

    def __init__(self, own: dict[str, Callable[[int], str]] | None = None, arrow: str = "→") -> None:
        self.own = own or {}
        self.arrow = arrow

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


def die_words(kind: str, value: int) -> str:
    """A die in words, as the browser says it: `your 4 die`, `the black 3 die`, `your die (any value)`."""
    kind_words = w(f"w.diekind.{kind}")
    if not int(value):
        return w("w.die.ownAny" if kind == "own" else "w.die.any", kind=kind_words)
    return w("w.die.own" if kind == "own" else "w.die.other", v=value, kind=kind_words)


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
