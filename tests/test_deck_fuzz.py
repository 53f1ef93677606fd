"""Property test: shipped decks mutated at random either validate or give located errors, never a traceback.

Each example takes one file of a copied deck (a card file or the manifest), changes its data in memory
(keys renamed or deleted, values swapped for other types, huge or negative numbers, markup, paths out
of the deck, links to unknown cards or to the card itself, cards duplicated or dropped, selectors and
overrides of expansions), writes that one file, and runs `cardtool validate` in-process (the CLI's
`main`, deep checks included). The run must exit 0, or exit 1 with every error printed as
`path:line:col: error[CODE]`; exit 70 (cardtool's "this is a bug" traceback) or any exception is a
failure. A smaller property calls `cardtool.deck.loader.load` directly: a report without errors always
comes with a deck, every error is located, and `load_deck` raises exactly when there are errors.

The byte-level YAML fuzzing is tests/test_yaml_source.py's; these examples are all well-formed YAML,
so they reach the schema, reference, expansion and food-web checks. Examples are derandomized and no
example database is kept, so CI runs the same 2,000+ examples every time. Most run on small decks (a
12-card Ecologies deck and its expansion, and the shipped Symbiosis deck: ~0.05 s each); the full
shipped Ecologies deck and its Frozen and Deep expansion (~0.15 s each) get 250 between them.
"""

from __future__ import annotations

import contextlib
import copy
import io
import re
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtool.cli import main
from cardtool.deck.loader import load, load_deck
from cardtool.errors import DeckError
from tests.conftest import DATA, DECKS

LOCATED = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>[a-z0-9-]+)\] ", re.MULTILINE)
ERROR_LINE = re.compile(r"^.*\berror\[[a-z0-9-]+\].*$", re.MULTILINE)


def settings_for(examples: int):
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])


# -- the decks, copied once --------------------------------------------------------------------------------


class FuzzDeck:
    """A copied deck: the deck to validate, its files' original bytes and data, and the card ids it knows."""

    def __init__(self, root: Path, deck: str, files: list[str]):
        self.root = root
        self.deck = root / deck
        self.files = files  # relative to root
        self.raw = {name: (root / name).read_bytes() for name in files}
        self.data = {name: yaml.safe_load(self.raw[name]) for name in files}
        self.pool = _pool(self.data.values())
        self.ids = sorted({card["id"] for data in self.data.values() if isinstance(data, dict)
                           for card in data.get("cards", ()) if isinstance(card, dict) and "id" in card})

    def restore(self) -> None:
        for name, raw in self.raw.items():
            (self.root / name).write_bytes(raw)


def _copy(source: Path, target: Path) -> None:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("*.md", "examples"))


@pytest.fixture(scope="module")
def decks(tmp_path_factory):
    top = tmp_path_factory.mktemp("fuzz")
    small = top / "small"
    small.mkdir()
    _copy(DATA / "expansions" / "base", small / "base")
    _copy(DATA / "expansions" / "addon", small / "addon")
    shipped = top / "shipped"
    shipped.mkdir()
    for name in ("ecologies-bizarre-biomes", "frozen-and-deep", "symbiosis"):
        _copy(DECKS / name, shipped / name)
    eco = "ecologies-bizarre-biomes"
    eco_files = [f"{eco}/deck.yaml", f"{eco}/biomes.yaml", f"{eco}/factors.yaml",
                 *sorted(f"{eco}/organisms/{p.name}" for p in (shipped / eco / "organisms").glob("*.yaml"))]
    frozen_files = ["frozen-and-deep/deck.yaml", "frozen-and-deep/biomes.yaml", "frozen-and-deep/factors.yaml",
                    *sorted(f"frozen-and-deep/organisms/{p.name}"
                            for p in (shipped / "frozen-and-deep" / "organisms").glob("*.yaml"))]
    return {
        "small": FuzzDeck(small, "base", ["base/deck.yaml", "base/cards.yaml"]),
        "addon": FuzzDeck(small, "addon", ["addon/deck.yaml", "addon/cards.yaml", "base/cards.yaml"]),
        "symbiosis": FuzzDeck(shipped, "symbiosis", ["symbiosis/deck.yaml", "symbiosis/cards.yaml",
                                                     "symbiosis/pond-life.yaml"]),
        "ecologies": FuzzDeck(shipped, eco, eco_files),
        "frozen": FuzzDeck(shipped, "frozen-and-deep", frozen_files + [f"{eco}/biomes.yaml"]),
    }


# -- mutations -----------------------------------------------------------------------------------------------

MARKUP = ["$\\frac{1}{0}$", "$x^", "<script>alert(1)</script>", "{{ 7*191 }}", "{% for x in y %}", "]]>",
          "<!-- ", "&amp;", "\\", "%s%n", "\x00", "\u202e", "\ufeff", "e\u0301", "🦀" * 3, "' OR 1=1 --",
          "**bold** _it_ ![x](http://127.0.0.1:1/x.png)"]
PATHS = ["../outside.yaml", "../../../../etc/passwd", "/etc/passwd", "/dev/zero", "~/x.yaml", "file:///etc/passwd",
         "http://127.0.0.1:1/x.png", "//host/share", "C:\\x.yaml", "**/*.yaml", "*", "../*/deck.yaml",
         "organisms/../../x.yaml", "./cards.yaml", "", ".", "..", "deck.yaml", "nonexistent.yaml", "a\x00b",
         "x" * 300, "cards.yaml/", "[", "organisms/*.yml"]
NUMBERS = [0, -1, 1, 2, 3, 7, 12, 99, 100, 255, 1000, 10**6, 10**9, 2**31, 2**63, 10**30, -(10**9)]


def scalars(ids: list[str]) -> st.SearchStrategy:
    return st.one_of(
        st.sampled_from(NUMBERS), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
        st.booleans(), st.none(), st.sampled_from(MARKUP), st.sampled_from(PATHS),
        st.sampled_from(ids or ["x"]), st.text(max_size=30), st.sampled_from(["1/2", "1 1/2", "0", "-1/2", "1/0", "x/y"]),
        st.sampled_from(["P", "C1", "C2", "C3", "C4", "SD", "RIP", "URB", "TUN", "biome", "organism", "factor",
                         "fixed", "per_animal", "per_season", "frog", "spring", "#zzzzzz", "#ffffff"]),
    )


def values(ids: list[str]) -> st.SearchStrategy:
    leaf = scalars(ids)
    return st.recursive(leaf, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), inner, max_size=3),
                        max_leaves=6)


KEYS = ["id", "kind", "name", "count", "biomes", "roles", "vp", "eats", "eaten_by", "code", "colour", "bonus",
        "effects", "text", "flavor", "art", "tags", "factor", "placement", "trigger", "action", "target", "filter",
        "amount", "scientific_name", "animal", "season", "scoring", "rule", "points", "cards", "extends",
        "include", "exclude", "overrides", "ids", "kinds", "rulebook", "game", "version", "seasons", "animals",
        "plural", "colour_name"]


def _containers(data, path=()):
    """Every (path, container) inside data: where a mutation can act."""
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, (dict, list)):
                yield from _containers(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            if isinstance(value, (dict, list)):
                yield from _containers(value, path + (index,))


LINK_KEYS = ("eats", "eaten_by", "animal", "season", "id", "ids", "extends")
ACTIONS = (["plausible"] * 8 + ["link"] * 3 + ["duplicate"] * 2 + ["set"] * 3 + ["delete"] * 2
           + ["rename", "path", "clear", "swap-type"])


def _pool(decks_data) -> dict:
    """Every value each key takes anywhere in the deck's files: mutations that keep the schema's types
    (a role list from another card, another card's eats) reach the reference and food-web checks."""
    pool: dict = {}

    def walk(data):
        if isinstance(data, dict):
            for key, value in data.items():
                pool.setdefault(key, []).append(value)
                walk(value)
        elif isinstance(data, list):
            for value in data:
                walk(value)

    for data in decks_data:
        walk(data)
    return {key: [v for i, v in enumerate(vals) if v not in vals[:i]][:60] for key, vals in pool.items()}


@st.composite
def mutated(draw, deck: FuzzDeck):
    """(file name, mutated data, a description of the changes)."""
    name = draw(st.sampled_from(deck.files))
    data = copy.deepcopy(deck.data[name])
    pool = deck.pool
    changes = []
    for _ in range(draw(st.sampled_from([1, 1, 1, 1, 2, 2, 3]))):
        places = list(_containers(data))
        path, target = draw(st.sampled_from(places))
        action = draw(st.sampled_from(ACTIONS))
        if isinstance(target, dict) and target:
            key = draw(st.sampled_from(sorted(target, key=str)))
            if action == "plausible" and pool.get(key):
                target[key] = copy.deepcopy(draw(st.sampled_from(pool[key])))
                if isinstance(target[key], int) and not isinstance(target[key], bool) and draw(st.booleans()):
                    target[key] = draw(st.sampled_from(NUMBERS))
            elif action == "delete":
                del target[key]
            elif action == "rename":
                new = draw(st.sampled_from(KEYS) | st.text(min_size=1, max_size=10))
                target[new] = target.pop(key)
                key = f"{key}->{new}"
            elif action == "link":  # a reference to an unknown card, to the card itself, or to another one
                card_id = target.get("id") if isinstance(target.get("id"), str) else "self"
                present = [k for k in LINK_KEYS if k in target]
                key = draw(st.sampled_from(present or ["eats", "eaten_by"]))
                choices = st.sampled_from(deck.ids + [card_id, "no-such-card", "wilow", "RIP"])
                target[key] = draw(st.lists(choices, max_size=4) if isinstance(target.get(key), list) or
                                   key not in target else choices)
            elif action == "path":
                if "game" in target:
                    key = draw(st.sampled_from(["cards", "rulebook", "extends"]))
                    target[key] = draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=3))
                else:
                    key = "art"
                    target[key] = draw(st.sampled_from(PATHS))
            elif action == "clear":
                target[key] = draw(st.sampled_from([[], {}, "", None, [None], [{}]]))
            elif action == "duplicate" and "id" in target:  # the same card under another id, or the same id
                key = "id"
                target[key] = draw(st.sampled_from(deck.ids + ["new-card"]))
            else:
                target[key] = draw(values(deck.ids))
            changes.append(f"{action} {path + (key,)}")
        elif isinstance(target, list) and target:
            index = draw(st.integers(0, len(target) - 1))
            if action == "delete":
                del target[index]
            elif action in ("duplicate", "plausible"):
                target.insert(draw(st.integers(0, len(target))), copy.deepcopy(target[index]))
            elif action == "swap-type":
                target[index] = draw(scalars(deck.ids))
            elif action == "link":
                target[index] = draw(st.sampled_from(deck.ids + ["no-such-card"]))
            else:
                target[index] = draw(values(deck.ids))
            changes.append(f"{action} {path + (index,)}")
        else:
            changes.append(f"replace {path}")
            if path:
                parent = data
                for step in path[:-1]:
                    parent = parent[step]
                parent[path[-1]] = draw(values(deck.ids))
            else:
                data = draw(values(deck.ids))
    return name, data, changes


def _dump(data) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)


def validate_mutation(deck: FuzzDeck, name: str, data, changes: list[str]) -> None:
    try:
        text = _dump(data)
    except (yaml.YAMLError, ValueError):  # a value PyYAML cannot write (e.g. a NUL in a key): not a deck
        return
    (deck.root / name).write_text(text, encoding="utf-8")
    try:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(["validate", str(deck.deck)])
            except SystemExit as exc:
                code = exc.code
        output = out.getvalue() + err.getvalue()
        where = f"{name} after {changes}:\n{text[:2000]}\n--- cardtool validate said:\n{output[:3000]}"
        assert "Traceback" not in output and code != 70, where
        assert code in (0, 1), where
        if code == 1:
            assert LOCATED.search(output), "exit 1 without a located error: " + where
            unlocated = [line for line in ERROR_LINE.findall(output) if not LOCATED.match(line + " ")]
            assert not unlocated, f"errors without path:line:col: {unlocated}\n{where}"
        # exit 0 may still print errors: an expansion is also checked alone, "for information"
    finally:
        deck.restore()


@pytest.mark.parametrize("which, examples", [("small", 800), ("addon", 400), ("symbiosis", 700)])
def test_mutated_small_decks_validate_or_report_located_errors(decks, which, examples):
    deck = decks[which]

    @settings_for(examples)
    @given(mutated(deck))
    def check(mutation):
        validate_mutation(deck, *mutation)

    check()


@pytest.mark.slow
@pytest.mark.parametrize("which, examples", [("ecologies", 150), ("frozen", 100)])
def test_mutated_shipped_ecologies_decks_validate_or_report_located_errors(decks, which, examples):
    deck = decks[which]

    @settings_for(examples)
    @given(mutated(deck))
    def check(mutation):
        validate_mutation(deck, *mutation)

    check()


def test_load_gives_a_deck_whenever_the_report_has_no_error(decks):
    """In-process API: load() never raises, a report without errors comes with a deck, every error is
    located, and load_deck() raises DeckError exactly when the report has errors."""
    deck = decks["small"]

    @settings_for(150)
    @given(mutated(deck))
    def check(mutation):
        name, data, changes = mutation
        try:
            (deck.root / name).write_text(_dump(data), encoding="utf-8")
        except (yaml.YAMLError, ValueError):
            return
        try:
            result = load(deck.deck)
            if result.report.ok:
                assert result.deck is not None, changes
            for issue in result.report.errors:
                assert issue.location is not None and issue.location.line >= 1, (changes, issue.format())
            try:
                load_deck(deck.deck)
                raised = False
            except DeckError:
                raised = True
            assert raised == (not result.report.ok), (changes, result.report.format())
        finally:
            deck.restore()

    check()
