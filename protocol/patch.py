"""RFC 6902 JSON Patch over plain JSON-like documents: diff views, apply patches.

Owns: `make_patch(old, new)`, which the server uses to diff one viewer's previous view
against its new one, and `apply_patch(doc, ops)`, which clients use to follow a room.
Must not: diff raw game states (only views cross the wire), or do I/O.

Backends: the `jsonpatch` library when it is importable (a dev dependency), else a small
built-in implementation; `BACKEND` says which is in use, and both are always available as
`*_builtin` / `*_jsonpatch` for tests. Either way a diff uses only `add`, `remove` and
`replace` (every client can apply those), compares scalars by type as well as value (`1` is
not `true`), and copies its values, so a patch never aliases parts of `new`. Applying
accepts all six operations. Documents are maps with string keys, lists (tuples read as
lists), strings, numbers, booleans and None.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any, Literal

import msgpack

_jsonpatch: ModuleType | None
try:
    import jsonpatch as _jsonpatch
except ImportError:  # pragma: no cover - depends on the environment
    _jsonpatch = None

Op = dict[str, Any]

BACKEND: Literal["jsonpatch", "builtin"] = "builtin" if _jsonpatch is None else "jsonpatch"
DIFF_OPS = frozenset({"add", "remove", "replace"})

_BAD_ESCAPE = re.compile(r"~(?![01])")
_INDEX = re.compile(r"0|[1-9][0-9]*")


class PatchError(ValueError):
    """A patch is malformed or does not apply to the document (a client should `sync`)."""


def make_patch(old: Any, new: Any) -> list[Op]:
    """Operations (add/remove/replace only) that turn `old` into `new`; shares nothing with `new`."""
    if _jsonpatch is None:
        return make_patch_builtin(old, new)
    return make_patch_jsonpatch(old, new)


def apply_patch(doc: Any, ops: list[Op], *, in_place: bool = False) -> Any:
    """The document after the operations; raises PatchError. `doc` is untouched unless `in_place`."""
    if _jsonpatch is None:
        return apply_patch_builtin(doc, ops, in_place=in_place)
    return apply_patch_jsonpatch(doc, ops, in_place=in_place)


# ---- the jsonpatch backend ------------------------------------------------------------------


def make_patch_jsonpatch(old: Any, new: Any) -> list[Op]:
    """`make_patch` through the `jsonpatch` library (ImportError if it is absent)."""
    if _jsonpatch is None:
        raise ImportError("jsonpatch is not installed")
    ops: list[Op] = _jsonpatch.JsonPatch.from_diff(old, new, optimization=False).patch
    if any(op["op"] not in DIFF_OPS for op in ops):  # older jsonpatch versions may still move
        return make_patch_builtin(old, new)
    return [{**op, "value": _copy(op["value"])} if "value" in op else op for op in ops]


def apply_patch_jsonpatch(doc: Any, ops: list[Op], *, in_place: bool = False) -> Any:
    """`apply_patch` through the `jsonpatch` library (ImportError if it is absent)."""
    if _jsonpatch is None:
        raise ImportError("jsonpatch is not installed")
    if not isinstance(ops, list) or not all(isinstance(op, dict) for op in ops):
        raise PatchError("a patch is a list of maps")
    try:
        return _jsonpatch.apply_patch(doc, ops, in_place=in_place)
    except Exception as exc:  # the library raises several unrelated types for bad patches
        raise PatchError(str(exc) or type(exc).__name__) from exc


# ---- the built-in backend -------------------------------------------------------------------


def make_patch_builtin(old: Any, new: Any, *, copy: bool = True) -> list[Op]:
    """`make_patch` without dependencies: maps per key, lists by their common head and tail.

    A list keeps its unchanged first and last items and patches the part between (one `add` for an item
    inserted into a sorted hand, not a `replace` of every later index); a list that dropped items at its
    head and grew at its tail (a rolling log) is patched with removes at 0 and adds at the end. A changed
    small map or list whose operations would take more bytes than its new value is replaced whole.
    With `copy=False` the operations' values share structure with `new` (for a caller that encodes them at
    once and never changes `new`)."""
    differ = _Differ(_deep_copy if copy else _same_value)
    differ.diff("", old, new)
    return differ.ops


_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})
#: a changed map or list is considered for a whole `replace` only when it has at most this many items
_REPLACE_ITEMS = 8
_escaped: dict[str, str] = {}
_ABSENT = object()


class _Differ:
    """One diff: the operations so far, how values are copied, and one msgpack packer for the strict
    comparisons (a packer per call of `packb` costs more than packing a small subtree)."""

    __slots__ = ("cp", "ops", "pack")

    def __init__(self, cp: Any) -> None:
        self.ops: list[Op] = []
        self.cp = cp
        self.pack = msgpack.Packer(use_bin_type=True).pack

    def equal_packed(self, a: Any, b: Any) -> bool:
        """For two containers Python already found equal: equal msgpack bytes too (1 is not True).

        Containers whose items are the very same objects are equal without packing (views share unchanged
        parts: cached card views, small ints, interned strings, True and False)."""
        if type(a) is dict:
            if all(b.get(k, _ABSENT) is v for k, v in a.items()):
                return True
        elif all(x is y for x, y in zip(a, b, strict=False)):  # (equal lengths: Python found them equal)
            return True
        try:
            return bool(self.pack(a) == self.pack(b))
        except (TypeError, ValueError, OverflowError):
            return _deep_same(a, b)

    def same_item(self, x: Any, y: Any) -> bool:
        """Strict equality of two list items (scalars by type and value, containers by packed bytes)."""
        if x is y:
            return True
        t = type(x)
        if t is not type(y) or x != y:
            return False
        return t in _SCALAR_TYPES or self.equal_packed(x, y)

    def diff(self, path: str, a: Any, b: Any) -> None:
        """Append the operations that turn `a` (at `path`) into `b`."""
        if a is b:
            return
        ops = self.ops
        ta, tb = type(a), type(b)
        if ta is dict and tb is dict:
            start = len(ops)
            self.diff_map(path, a, b)
        elif (ta is list or ta is tuple) and (tb is list or tb is tuple):
            start = len(ops)
            self.diff_list(path, a, b)
        elif ta is tb and ta in _SCALAR_TYPES and a == b:
            return
        else:
            ops.append({"op": "replace", "path": path, "value": self.cp(b)})
            return
        if len(ops) - start >= 2 and path and len(b) <= _REPLACE_ITEMS:
            self.maybe_replace_whole(start, path, b)

    def maybe_replace_whole(self, start: int, path: str, b: Any) -> None:
        """Swap `ops[start:]` for one `replace` of `b` when that packs smaller."""
        ops = self.ops
        try:
            size = len(self.pack(ops[start:]))
            smaller = size >= 64 and len(self.pack(b)) + len(path) + 14 < size
        except (TypeError, ValueError, OverflowError):
            return  # (not msgpack-encodable: the operations stay as they are)
        if smaller:
            del ops[start:]
            ops.append({"op": "replace", "path": path, "value": self.cp(b)})

    def diff_map(self, path: str, a: dict[str, Any], b: dict[str, Any]) -> None:
        if a == b and self.equal_packed(a, b):
            return  # an unchanged subtree: skipped at C speed instead of walked
        ops = self.ops
        for key in a:
            if key not in b:
                ops.append({"op": "remove", "path": path + "/" + _escape(key)})
        for key, vb in b.items():
            if key not in a:
                ops.append({"op": "add", "path": path + "/" + _escape(key), "value": self.cp(vb)})
                continue
            va = a[key]
            if va is vb:
                continue
            t = type(va)
            if t is type(vb) and t in _SCALAR_TYPES:
                if va != vb:
                    ops.append({"op": "replace", "path": path + "/" + _escape(key), "value": vb})
                continue
            self.diff(path + "/" + _escape(key), va, vb)

    def diff_list(self, path: str, a: Any, b: Any) -> None:
        la, lb = len(a), len(b)
        if la == lb and a == b and self.equal_packed(a, b):
            return
        ops, cp = self.ops, self.cp
        shift = _head_shift(a, b)
        if shift:
            # a list that dropped items at its head (a rolling log): remove them, add the new tail
            ops.extend({"op": "remove", "path": f"{path}/0"} for _ in range(shift))
            kept = la - shift
            ops.extend({"op": "add", "path": f"{path}/{i}", "value": cp(b[i])} for i in range(kept, lb))
            return
        same = self.same_item
        n = min(la, lb)
        head = 0
        while head < n and same(a[head], b[head]):
            head += 1
        tail = 0
        while tail < n - head and same(a[la - 1 - tail], b[lb - 1 - tail]):
            tail += 1
        mid_a, mid_b = la - head - tail, lb - head - tail
        both = min(mid_a, mid_b)
        # removes first, from the highest index: the indices of the pairs below them stay as they are
        for i in range(head + mid_a - 1, head + both - 1, -1):
            ops.append({"op": "remove", "path": f"{path}/{i}"})
        for i in range(head, head + both):
            self.diff(f"{path}/{i}", a[i], b[i])
        for i in range(head + both, head + mid_b):
            ops.append({"op": "add", "path": f"{path}/{i}", "value": cp(b[i])})


def _escape(key: Any) -> str:
    """An RFC 6901 reference token for a map key (memoised: views use few distinct keys)."""
    token = _escaped.get(key) if type(key) is str else None
    if token is None:
        if not isinstance(key, str):
            raise TypeError(f"map keys must be strings, not {type(key).__name__}")
        token = key.replace("~", "~0").replace("/", "~1")
        if len(_escaped) < 4096:
            _escaped[key] = token
    return token


def apply_patch_builtin(doc: Any, ops: list[Op], *, in_place: bool = False) -> Any:
    """`apply_patch` without dependencies: add, remove, replace, move, copy and test."""
    if not isinstance(ops, list):
        raise PatchError("a patch is a list of operations")
    if not in_place:
        doc = _copy(doc)
    for op in ops:
        doc = _apply_one(doc, op)
    return doc


def _apply_one(doc: Any, op: Any) -> Any:
    if not isinstance(op, dict):
        raise PatchError("an operation is a map")
    kind = op.get("op")
    path = _parse(op.get("path"))
    if kind == "add":
        return _add(doc, path, _copy(_value(op)))
    if kind == "remove":
        _remove(doc, path)
        return doc
    if kind == "replace":
        return _replace(doc, path, _copy(_value(op)))
    if kind == "move":
        source = _parse(op.get("from"))
        if source == path:
            _get(doc, source)
            return doc
        if path[: len(source)] == source:
            raise PatchError("cannot move a value into one of its own children")
        return _add(doc, path, _remove(doc, source))
    if kind == "copy":
        return _add(doc, path, _copy(_get(doc, _parse(op.get("from")))))
    if kind == "test":
        if not _json_equal(_get(doc, path), _value(op)):
            raise PatchError(f"test failed at {op['path']!r}")
        return doc
    raise PatchError(f"unknown operation {kind!r}")


def _value(op: dict[str, Any]) -> Any:
    if "value" not in op:
        raise PatchError(f"a {op['op']!r} operation needs a value")
    return op["value"]


def _parse(pointer: Any) -> list[str]:
    """The reference tokens of an RFC 6901 pointer."""
    if not isinstance(pointer, str):
        raise PatchError("a path is a string")
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PatchError(f"a path starts with '/': {pointer!r}")
    tokens = pointer[1:].split("/")
    for token in tokens:
        if _BAD_ESCAPE.search(token):
            raise PatchError(f"bad '~' escape in {pointer!r}")
    return [t.replace("~1", "/").replace("~0", "~") for t in tokens]


def _index(token: str, size: int, *, end: bool) -> int:
    """A list index; `end` allows `-` and `size` (the position after the last item)."""
    if end and token == "-":
        return size
    if not _INDEX.fullmatch(token):
        raise PatchError(f"bad list index {token!r}")
    index = int(token)
    if index > size or (index == size and not end):
        raise PatchError(f"list index {index} out of range")
    return index


def _child(node: Any, token: str) -> Any:
    if isinstance(node, dict):
        if token not in node:
            raise PatchError(f"no member {token!r}")
        return node[token]
    if isinstance(node, list):
        return node[_index(token, len(node), end=False)]
    raise PatchError(f"cannot look up {token!r} in a {type(node).__name__}")


def _get(doc: Any, path: list[str]) -> Any:
    for token in path:
        doc = _child(doc, token)
    return doc


def _add(doc: Any, path: list[str], value: Any) -> Any:
    if not path:
        return value
    parent, token = _get(doc, path[:-1]), path[-1]
    if isinstance(parent, dict):
        parent[token] = value
    elif isinstance(parent, list):
        parent.insert(_index(token, len(parent), end=True), value)
    else:
        raise PatchError(f"cannot add to a {type(parent).__name__}")
    return doc


def _remove(doc: Any, path: list[str]) -> Any:
    if not path:
        raise PatchError("cannot remove the whole document")
    parent, token = _get(doc, path[:-1]), path[-1]
    _child(parent, token)
    if isinstance(parent, dict):
        return parent.pop(token)
    return parent.pop(_index(token, len(parent), end=False))


def _replace(doc: Any, path: list[str], value: Any) -> Any:
    if not path:
        return value
    parent, token = _get(doc, path[:-1]), path[-1]
    _child(parent, token)
    if isinstance(parent, dict):
        parent[token] = value
    else:
        parent[_index(token, len(parent), end=False)] = value
    return doc


_MAX_SHIFT = 32


def _head_shift(a: list[Any] | tuple[Any, ...], b: list[Any] | tuple[Any, ...]) -> int:
    """k > 0 when `b` is `a` without its first k items plus new items at the end (k <= 32), else 0."""
    if not a or not b or a[0] == b[0]:
        return 0  # (Python's == is a fast filter; the strict check runs once, on the candidate)
    first = b[0]
    for k in range(1, min(len(a) - 1, _MAX_SHIFT) + 1):
        kept = len(a) - k
        if kept <= len(b) and a[k] == first and list(a[k:]) == list(b[:kept]):
            if all(x is y for x, y in zip(a[k:], b[:kept], strict=True)):
                return k  # the very same items (a room's log shares its events from version to version)
            return k if _equal_containers(list(a[k:]), list(b[:kept])) else 0
    return 0


def _equal_containers(a: Any, b: Any) -> bool:
    """Strictly equal maps or lists: Python's == first (fast), then msgpack bytes, which tell 1 from True."""
    if type(a) is not type(b) or a != b:
        return False
    try:
        return bool(msgpack.packb(a) == msgpack.packb(b))
    except (TypeError, ValueError, OverflowError):
        return _deep_same(a, b)


def _deep_same(a: Any, b: Any) -> bool:
    """Deep equality that tells `1` and `True` apart (the diff must not lose such a change)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_deep_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_deep_same(x, y) for x, y in zip(a, b, strict=True))
    return _same(a, b)


def _same(a: Any, b: Any) -> bool:
    """Scalar equality that tells `1`, `1.0` and `True` apart."""
    return type(a) is type(b) and bool(a == b)


def _json_equal(a: Any, b: Any) -> bool:
    """JSON equality for `test`: numbers by value, but a boolean is not a number."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list | tuple) and isinstance(y, list | tuple):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif isinstance(x, dict | list | tuple) or isinstance(y, dict | list | tuple):
            return False
        elif isinstance(x, bool) or isinstance(y, bool):
            if type(x) is not type(y) or x != y:
                return False
        elif x != y:
            return False
    return True


def _copy(value: Any) -> Any:
    """A deep copy of a JSON-like value (tuples become lists)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


_deep_copy = _copy


def _same_value(value: Any) -> Any:
    return value
