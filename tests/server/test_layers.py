"""The server's module map: imports go down the layers, never round in a cycle, never to another module's privates.

Every `import` and `from ... import` in `server/` counts, also those inside functions and under `TYPE_CHECKING`
(a cycle that only type checkers see is still two modules that must be read together).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "server"

#: top to bottom: a module may import its own layer and the layers below it, never one above
LAYERS = [
    ("server.__main__",),
    ("server.net",),
    ("server.node",),
    ("server.rooms",),
    ("server.store",),
    ("server.games",),
    ("server.config", "server.metrics"),
]


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in SERVER.rglob("*.py")}


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, list[str], int]]:
    """(module imported, names taken from it, line) for every import of a `server` module in `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, list[str], int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "server":
                    found.append((alias.name, [], node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            if base.split(".")[0] != "server":
                continue
            plain: list[str] = []
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:  # `from server.rooms import botpool` imports a module
                    found.append((sub, [], node.lineno))
                else:
                    plain.append(alias.name)
            if plain or not node.names:
                found.append((base, plain, node.lineno))
    return found


def graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {name: {target for target, _names, _line in imports_of(name, path, modules)} - {name}
            for name, path in modules.items()}  # fmt: skip


def layer_of(module: str) -> int:
    for i, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return i
    raise AssertionError(f"{module} is in no layer: add its package to LAYERS (and to docs/architecture.md)")


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle of imports, as the list of modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start)) is not None:
            return found
    return None


def test_no_module_of_the_server_imports_itself_back_through_others() -> None:
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle_of_three() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "d": {"a", "c"}}) is None


def test_imports_only_go_down_the_layers() -> None:
    wrong = [
        f"{src} imports {dst}"
        for src, targets in graph().items()
        for dst in targets
        if dst in all_modules() and layer_of(dst) < layer_of(src)
    ]
    assert not wrong, "imports that go up a layer:\n" + "\n".join(sorted(wrong))


def test_no_module_imports_another_modules_private_names() -> None:
    modules = all_modules()
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: from {target} import {n}"
        for name, path in modules.items()
        for target, names, line in imports_of(name, path, modules)
        for n in names
        if n.startswith("_") and not n.startswith("__") and target != name
    ]
    assert not wrong, "\n".join(wrong)


def test_the_engines_import_nothing_of_the_server_around_them() -> None:
    outside = [
        f"{src} imports {dst}"
        for src, targets in graph().items()
        if src.startswith("server.games")
        for dst in targets
        if not dst.startswith("server.games")
    ]
    assert not outside, "\n".join(outside)


def test_the_room_core_imports_no_room_extension() -> None:
    edges = graph()
    core = edges["server.rooms.core"]
    extensions = {m for m, targets in edges.items() if "server.rooms.core" in targets and m.startswith("server.rooms")}
    assert extensions >= {"server.rooms.clock", "server.rooms.chat", "server.rooms.presence"}
    assert not core & extensions, core & extensions


def test_outside_the_engines_no_module_reaches_into_another_objects_private_members() -> None:
    wrong = []
    for name, path in all_modules().items():
        if name.startswith("server.games"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not wrong, "\n".join(wrong)
