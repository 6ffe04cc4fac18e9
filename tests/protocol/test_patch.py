"""JSON Patch: diffs that apply everywhere, share nothing, and use only add/remove/replace."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonpatch
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protocol.patch as patch_module
from protocol.patch import (
    BACKEND,
    PatchError,
    apply_patch,
    apply_patch_builtin,
    apply_patch_jsonpatch,
    make_patch,
    make_patch_builtin,
    make_patch_jsonpatch,
)

Diff = Callable[[Any, Any], list[dict[str, Any]]]
Apply = Callable[..., Any]

DIFFS: list[Diff] = [make_patch_builtin, make_patch_jsonpatch, make_patch]
APPLIES: list[Apply] = [
    apply_patch_builtin,
    apply_patch_jsonpatch,
    apply_patch,
    lambda doc, ops: jsonpatch.apply_patch(doc, ops),
]
DIFF_IDS = ["builtin", "jsonpatch", "default"]
APPLY_IDS = ["builtin", "jsonpatch", "default", "library"]


def canon(doc: Any) -> str:
    """Equality that tells 1 from true and ignores key order."""
    return json.dumps(doc, sort_keys=True)


keys = st.text(alphabet="ab/~01-", max_size=3) | st.text(max_size=3)
scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.integers() | st.text(max_size=4)
documents = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(keys, children, max_size=5),
    max_leaves=25,
)


@st.composite
def variant_of(draw: st.DrawFn, doc: Any) -> Any:
    """A document like `doc`: some parts kept, some changed, some dropped, some added."""
    action = draw(st.sampled_from(["keep", "keep", "recurse", "recurse", "new"]))
    if action == "keep":
        return doc
    if action == "new":
        return draw(documents)
    if isinstance(doc, dict):
        out = {k: draw(variant_of(v)) for k, v in doc.items() if draw(st.integers(0, 4))}
        out.update(draw(st.dictionaries(keys, documents, max_size=2)))
        return out
    if isinstance(doc, list):
        out_list = [draw(variant_of(v)) for v in doc if draw(st.integers(0, 4))]
        for _ in range(draw(st.integers(0, 2))):
            out_list.insert(draw(st.integers(0, len(out_list))), draw(documents))
        return out_list
    return draw(scalars)


pairs = documents.flatmap(lambda a: st.tuples(st.just(a), variant_of(a))) | st.tuples(documents, documents)

PROPERTY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_jsonpatch_is_the_backend_when_installed() -> None:
    assert BACKEND == "jsonpatch"


@pytest.mark.parametrize("diff", DIFFS, ids=DIFF_IDS)
@PROPERTY
@given(pairs)
def test_applying_the_diff_of_a_and_b_to_a_gives_b(diff: Diff, pair: tuple[Any, Any]) -> None:
    a, b = pair
    before = canon(a)
    ops = diff(a, b)
    for apply in APPLIES:
        assert canon(apply(a, ops)) == canon(b)
    assert canon(a) == before


@pytest.mark.parametrize("diff", DIFFS, ids=DIFF_IDS)
@PROPERTY
@given(pairs)
def test_a_diff_uses_only_add_remove_and_replace(diff: Diff, pair: tuple[Any, Any]) -> None:
    assert {op["op"] for op in diff(*pair)} <= {"add", "remove", "replace"}


def scramble(doc: Any) -> None:
    """Change every container inside `doc` in place."""
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
            node["~scrambled"] = True
        elif isinstance(node, list):
            stack.extend(node)
            node.append("~scrambled")


@pytest.mark.parametrize("diff", DIFFS, ids=DIFF_IDS)
@PROPERTY
@given(pairs)
def test_a_diff_shares_no_mutable_part_with_new(diff: Diff, pair: tuple[Any, Any]) -> None:
    a, b = pair
    b = json.loads(json.dumps(b))
    ops = diff(a, b)
    before = canon(ops)
    scramble(b)
    assert canon(ops) == before


@pytest.mark.parametrize("diff", DIFFS, ids=DIFF_IDS)
@PROPERTY
@given(documents)
def test_the_diff_of_equal_documents_is_empty(diff: Diff, doc: Any) -> None:
    assert diff(doc, json.loads(json.dumps(doc))) == []


@pytest.mark.parametrize("diff", DIFFS, ids=DIFF_IDS)
def test_one_is_not_true_and_zero_is_not_false(diff: Diff) -> None:
    assert diff({"a": 1, "b": [0]}, {"a": True, "b": [False]}) != []
    assert canon(apply_patch_builtin({"a": 1}, diff({"a": 1}, {"a": True}))) == canon({"a": True})


def test_the_builtin_diff_replaces_changed_indices_and_grows_or_shrinks_the_tail() -> None:
    assert make_patch_builtin([1, 2, 3], [1, 5]) == [
        {"op": "remove", "path": "/2"},
        {"op": "replace", "path": "/1", "value": 5},
    ]
    assert make_patch_builtin({"l": [1]}, {"l": [1, 2, 3]}) == [
        {"op": "add", "path": "/l/1", "value": 2},
        {"op": "add", "path": "/l/2", "value": 3},
    ]


def test_the_builtin_diff_escapes_tilde_and_slash_in_keys() -> None:
    assert make_patch_builtin({}, {"a/b~c": 1}) == [{"op": "add", "path": "/a~1b~0c", "value": 1}]


def test_the_builtin_diff_replaces_the_whole_document_when_its_kind_changes() -> None:
    assert make_patch_builtin({"a": 1}, [1]) == [{"op": "replace", "path": "", "value": [1]}]


def test_the_builtin_diff_refuses_non_string_keys() -> None:
    with pytest.raises(TypeError):
        make_patch_builtin({}, {1: 2})


def test_a_view_diff_is_small() -> None:
    old = {"public": {"round": 1, "seats": [{"coins": 3}, {"coins": 4}]}, "private": {"hand": [1, 2]}}
    new = {"public": {"round": 1, "seats": [{"coins": 3}, {"coins": 6}]}, "private": {"hand": [1, 2]}}
    for diff in DIFFS:
        assert diff(old, new) == [{"op": "replace", "path": "/public/seats/1/coins", "value": 6}]


# ---- applying: RFC 6902 appendix A and errors ---------------------------------------------

RFC_EXAMPLES: list[tuple[str, Any, list[dict[str, Any]], Any]] = [
    ("A.1", {"foo": "bar"}, [{"op": "add", "path": "/baz", "value": "qux"}], {"baz": "qux", "foo": "bar"}),
    (
        "A.2",
        {"foo": ["bar", "baz"]},
        [{"op": "add", "path": "/foo/1", "value": "qux"}],
        {"foo": ["bar", "qux", "baz"]},
    ),
    ("A.3", {"baz": "qux", "foo": "bar"}, [{"op": "remove", "path": "/baz"}], {"foo": "bar"}),
    ("A.4", {"foo": ["bar", "qux", "baz"]}, [{"op": "remove", "path": "/foo/1"}], {"foo": ["bar", "baz"]}),
    (
        "A.5",
        {"baz": "qux", "foo": "bar"},
        [{"op": "replace", "path": "/baz", "value": "boo"}],
        {"baz": "boo", "foo": "bar"},
    ),
    (
        "A.6",
        {"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}},
        [{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}],
        {"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}},
    ),
    (
        "A.7",
        {"foo": ["all", "grass", "cows", "eat"]},
        [{"op": "move", "from": "/foo/1", "path": "/foo/3"}],
        {"foo": ["all", "cows", "eat", "grass"]},
    ),
    (
        "A.8",
        {"baz": "qux", "foo": ["a", 2, "c"]},
        [{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2}],
        {"baz": "qux", "foo": ["a", 2, "c"]},
    ),
    (
        "A.10",
        {"foo": "bar"},
        [{"op": "add", "path": "/child", "value": {"grandchild": {}}}],
        {"foo": "bar", "child": {"grandchild": {}}},
    ),
    (
        "A.11",
        {"foo": "bar"},
        [{"op": "add", "path": "/baz", "value": "qux", "xyz": 123}],
        {"foo": "bar", "baz": "qux"},
    ),
    (
        "A.14",
        {"/": 9, "~1": 10},
        [{"op": "test", "path": "/~01", "value": 10}],
        {"/": 9, "~1": 10},
    ),
    (
        "A.16",
        {"foo": ["bar"]},
        [{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}],
        {"foo": ["bar", ["abc", "def"]]},
    ),
    ("copy", {"a": {"b": 1}}, [{"op": "copy", "from": "/a", "path": "/c"}], {"a": {"b": 1}, "c": {"b": 1}}),
    ("root", {"a": 1}, [{"op": "replace", "path": "", "value": [1]}], [1]),
    ("move-same", {"a": 1}, [{"op": "move", "from": "/a", "path": "/a"}], {"a": 1}),
    ("test-number", {"a": 1}, [{"op": "test", "path": "/a", "value": 1.0}], {"a": 1}),
]

RFC_ERRORS: list[tuple[str, Any, Any]] = [
    ("A.9", {"baz": "qux"}, [{"op": "test", "path": "/baz", "value": "bar"}]),
    ("A.12", {"foo": "bar"}, [{"op": "add", "path": "/baz/bat", "value": "qux"}]),
    ("A.15", {"/": 9, "~1": 10}, [{"op": "test", "path": "/~01", "value": "10"}]),
    ("bool-is-not-int", {"a": 1}, [{"op": "test", "path": "/a", "value": True}]),
    ("missing-value", {}, [{"op": "add", "path": "/a"}]),
    ("unknown-op", {}, [{"op": "frobnicate", "path": "/a"}]),
    ("bad-pointer", {"a": 1}, [{"op": "remove", "path": "a"}]),
    ("bad-escape", {"a": 1}, [{"op": "remove", "path": "/~2"}]),
    ("missing-member", {"a": 1}, [{"op": "remove", "path": "/b"}]),
    ("index-past-end", {"l": [1]}, [{"op": "add", "path": "/l/2", "value": 0}]),
    ("leading-zero", {"l": [1, 2]}, [{"op": "replace", "path": "/l/01", "value": 0}]),
    ("replace-dash", {"l": [1]}, [{"op": "replace", "path": "/l/-", "value": 0}]),
    ("remove-root", {"a": 1}, [{"op": "remove", "path": ""}]),
    ("into-own-child", {"a": {"b": 1}}, [{"op": "move", "from": "/a", "path": "/a/b/c"}]),
    ("into-a-scalar", {"a": 1}, [{"op": "add", "path": "/a/b", "value": 1}]),
    ("not-a-list", {}, {"op": "add", "path": "/a", "value": 1}),
    ("op-not-a-map", {}, ["add"]),
]


@pytest.mark.parametrize("apply", APPLIES[:3], ids=APPLY_IDS[:3])
@pytest.mark.parametrize(("name", "doc", "ops", "expected"), RFC_EXAMPLES, ids=[e[0] for e in RFC_EXAMPLES])
def test_the_rfc_examples_apply(apply: Apply, name: str, doc: Any, ops: Any, expected: Any) -> None:
    assert canon(apply(doc, ops)) == canon(expected)


@pytest.mark.parametrize("apply", APPLIES[:3], ids=APPLY_IDS[:3])
@pytest.mark.parametrize(("name", "doc", "ops"), RFC_ERRORS, ids=[e[0] for e in RFC_ERRORS])
def test_a_patch_that_does_not_apply_raises_patch_error(apply: Apply, name: str, doc: Any, ops: Any) -> None:
    before = canon(doc)
    with pytest.raises(PatchError):
        apply(doc, ops)
    assert canon(doc) == before


@pytest.mark.parametrize("apply", APPLIES[:3], ids=APPLY_IDS[:3])
def test_applying_copies_values_out_of_the_patch(apply: Apply) -> None:
    ops = [{"op": "add", "path": "/a", "value": {"b": [1]}}]
    doc = apply({}, ops)
    doc["a"]["b"].append(2)
    assert ops[0]["value"] == {"b": [1]}


@pytest.mark.parametrize("apply", [apply_patch_builtin, apply_patch_jsonpatch], ids=["builtin", "jsonpatch"])
def test_in_place_application_changes_the_given_document(apply: Apply) -> None:
    doc = {"a": 1}
    assert apply(doc, [{"op": "add", "path": "/b", "value": 2}], in_place=True) is doc
    assert doc == {"a": 1, "b": 2}


def test_without_jsonpatch_the_builtin_backend_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jsonpatch", None)
    spec = importlib.util.spec_from_file_location("patch_without_jsonpatch", Path(patch_module.__file__))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.BACKEND == "builtin"
    a, b = {"l": [1, 2], "x": {"y": 1}}, {"l": [1], "x": {"y": True}, "z": None}
    ops = module.make_patch(a, b)
    assert ops == make_patch_builtin(a, b)
    assert canon(module.apply_patch(a, ops)) == canon(b)
    with pytest.raises(ImportError):
        module.make_patch_jsonpatch(a, b)


def test_a_rolling_log_that_drops_its_head_is_patched_with_a_few_operations() -> None:
    old = {"log": [{"n": i, "ev": "move"} for i in range(1, 25)]}
    new = {"log": [{"n": i, "ev": "move"} for i in range(3, 27)]}
    ops = make_patch_builtin(old, new)
    assert len(ops) == 4
    assert [o["op"] for o in ops] == ["remove", "remove", "add", "add"]
    assert apply_patch_builtin(old, ops) == new


def test_a_head_shift_never_confuses_one_with_true() -> None:
    old = [1, 2, 3]
    new = [True, 2, 3]
    assert apply_patch_builtin(old, make_patch_builtin(old, new)) == new
    assert apply_patch_builtin(old, make_patch_builtin(old, new))[0] is True


def test_an_item_inserted_into_or_taken_from_a_sorted_list_is_one_operation() -> None:
    hand = ["blue-1", "green-2", "red-1", "red-2", "yellow-3"]
    grown = ["blue-1", "green-1", "green-2", "red-1", "red-2", "yellow-3"]
    assert make_patch_builtin({"hand": hand}, {"hand": grown}) == [
        {"op": "add", "path": "/hand/1", "value": "green-1"}
    ]
    shrunk = ["blue-1", "green-2", "red-2", "yellow-3"]
    assert make_patch_builtin({"hand": hand}, {"hand": shrunk}) == [{"op": "remove", "path": "/hand/2"}]
    swapped = ["blue-1", "green-2", "purple-1", "purple-2", "red-2", "yellow-3"]
    ops = make_patch_builtin(hand, swapped)
    assert apply_patch_builtin(hand, ops) == swapped
    assert len(ops) == 2  # red-1 -> purple-1, purple-2 added before red-2; blue, green, red-2, yellow kept


def test_a_small_map_that_changed_all_over_is_replaced_whole() -> None:
    old = {"prompt": {"text": "Move a figure.", "options": [{"a": "move", "fig": 0}, {"a": "pass"}]}}
    new = {"prompt": {"text": "Draw a card from the display or the deck.",
                      "options": [{"a": "draw", "from": "display", "slot": s} for s in range(3)]}}  # fmt: skip
    ops = make_patch_builtin(old, new)
    assert ops == [{"op": "replace", "path": "/prompt", "value": new["prompt"]}]
    assert ops[0]["value"] is not new["prompt"]  # copied, like every value of a diff
    # one small change in a small map stays one small operation
    assert make_patch_builtin({"p": {"a": 1, "b": 2}}, {"p": {"a": 1, "b": 3}}) == [
        {"op": "replace", "path": "/p/b", "value": 3}
    ]
