"""Small helpers shared by the test suites."""

from __future__ import annotations

from typing import Any


def strings(doc: Any) -> set[str]:
    """Every string anywhere in a view (keys and values): what a hidden-information check searches."""
    out: set[str] = set()
    stack = [doc]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return out
