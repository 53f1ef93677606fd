"""Bounds: no deck can make a command exhaust memory or time; each limit is a located error, fast."""

from __future__ import annotations

import shutil
import time

import pytest

from cardtool.deck import compose, yamlsource
from cardtool.deck.loader import load
from tests.conftest import DATA

BASE = DATA / "expansions" / "base"


def _copy_base(tmp_path, name="deck"):
    deck = tmp_path / name
    shutil.copytree(BASE, deck)
    return deck


def _with_count(deck, card_name: str, count: int) -> int:
    """Give the card named card_name a count; returns the line of the count."""
    cards = deck / "cards.yaml"
    lines = cards.read_text().splitlines()
    at = lines.index(f"  name: {card_name}") + 1
    lines.insert(at, f"  count: {count}")
    cards.write_text("\n".join(lines) + "\n")
    return at + 1


@pytest.mark.parametrize("command", [["validate", "{deck}"], ["play", "{deck}", "--seed", "1"],
                                     ["render", "cards", "{deck}", "--out", "{out}"], ["info", "{deck}"]])
def test_a_billion_copies_is_a_located_error_at_the_count(command, tmp_path, run_cli):
    deck = _copy_base(tmp_path)
    line = _with_count(deck, "Algae", 1_000_000_000)
    started = time.perf_counter()
    code, out, err = run_cli(*(part.format(deck=deck, out=tmp_path / "cards.pdf") for part in command))
    assert time.perf_counter() - started < 20
    assert code == 1, out + err
    assert f"cards.yaml:{line}:10: error[too-large] algae: 'count': must be at most 100" in out + err
    assert "Traceback" not in err
    assert not (tmp_path / "cards.pdf").exists()


def test_a_count_of_100_is_allowed(tmp_path):
    deck = _copy_base(tmp_path)
    _with_count(deck, "Algae", 100)
    result = load(deck)
    assert result.report.ok, result.report.format()
    assert result.deck.size == 111


def _organisms(n: int, count: int) -> str:
    return "cards:\n" + "".join(
        f"- {{id: extra-{i}, kind: organism, name: Extra {i}, count: {count}, biomes: [RIP], roles: [P], vp: 1,"
        f" eats: [], eaten_by: []}}\n" for i in range(n))


def test_the_whole_deck_with_its_bases_is_bounded_at_the_manifest(tmp_path):
    expansion = tmp_path / "big"
    expansion.mkdir()
    (expansion / "deck.yaml").write_text(f'id: big\nname: Big\nversion: "1"\ngame: ecologies\nextends: [{BASE}]\n'
                                         "cards: [cards.yaml]\n")
    (expansion / "cards.yaml").write_text(_organisms(20, 100))  # 2,000 of its own plus the base's 12
    report = load(expansion).report
    [issue] = [i for i in report.errors if i.code == "deck-too-large"]
    assert issue.location.file.name == "deck.yaml" and (issue.location.line, issue.location.column) == (6, 1)
    assert f"holds 2,012 cards with every copy counted and its bases; at most {compose.MAX_DECK_CARDS:,}" \
        in issue.message
    assert "extra-0 x100 (" in issue.hint


def test_cards_per_file_are_bounded(tmp_path):
    deck = _copy_base(tmp_path)
    (deck / "cards.yaml").write_text(_organisms(1001, 1))
    errors = load(deck).report.errors
    assert [(i.code, i.location.line) for i in errors] == [("too-large", 2)]
    assert "has 1,001 entries, more than the 1,000 allowed" in errors[0].message


def test_long_text_is_bounded_and_never_echoed_whole(tmp_path):
    deck = _copy_base(tmp_path)
    cards = deck / "cards.yaml"
    cards.write_text(cards.read_text().replace("  name: Algae\n", "  name: Algae\n  flavor: " + "z" * 6000 + "\n"))
    [issue] = load(deck).report.errors
    assert issue.code == "too-large" and issue.card == "algae" and issue.location.line == 14
    assert "6,000 characters, more than the 5,000 allowed" in issue.message
    assert len(issue.format()) < 400


def test_a_huge_file_fails_at_once_as_too_large(tmp_path, run_cli):
    deck = _copy_base(tmp_path)
    cards = deck / "cards.yaml"
    with cards.open("a") as stream:  # 3 MB of plain values: no alias anywhere
        stream.write("# " + "x" * 3_000_000 + "\n")
    started = time.perf_counter()
    code, out, err = run_cli("validate", deck)
    assert time.perf_counter() - started < 5
    assert code == 1
    assert "cards.yaml: error[file-too-large] the file is larger than 2 MB" in out
    assert "alias" not in out


def test_many_plain_values_are_not_an_alias_bomb(tmp_path):
    file = tmp_path / "plain.yaml"
    values = 250_000  # more than any alias budget, each value written out
    file.write_text("values: [" + ", ".join(["1"] * values) + "]\n")
    assert file.stat().st_size < yamlsource.MAX_FILE_BYTES
    from cardtool.issues import Report

    report = Report()
    doc = yamlsource.load_yaml(file, report)
    assert report.ok, report.format()
    assert len(doc.data["values"]) == values


def test_aliases_expanding_past_the_budget_are_still_refused(tmp_path):
    from cardtool.issues import Report

    file = tmp_path / "bomb.yaml"
    file.write_text("a: &a [" + ", ".join(["x"] * 1000) + "]\n"
                    "b: [" + ", ".join(["*a"] * (yamlsource.MAX_ALIAS_VALUES // 1000 + 1)) + "]\n")
    report = Report()
    assert yamlsource.load_yaml(file, report) is None
    [issue] = report.errors
    assert issue.code == "alias-limit" and "aliases (*name) in this file expand to more than 100,000 values" \
        in issue.message


def test_a_fifo_is_refused_without_opening_it(tmp_path):
    import os

    from cardtool.issues import Report

    fifo = tmp_path / "cards.yaml"
    os.mkfifo(fifo)
    report = Report()
    assert yamlsource.load_yaml(fifo, report) is None  # opening it would wait for a writer forever
    assert report.errors[0].message == "not a regular file"


def test_reading_stops_after_too_many_card_files(tmp_path, monkeypatch):
    monkeypatch.setattr(compose, "MAX_CARD_FILES", 5)
    deck = _copy_base(tmp_path)
    (deck / "more").mkdir()
    for i in range(8):
        (deck / "more" / f"{i}.yaml").write_text(_organisms(1, 1).replace("extra-0", f"more-{i}"))
    manifest = deck / "deck.yaml"
    manifest.write_text(manifest.read_text().replace("cards: [cards.yaml]", "cards: [cards.yaml, more/*.yaml]"))
    opened = []
    real = yamlsource._read_at_most
    monkeypatch.setattr(yamlsource, "_read_at_most", lambda file, size: opened.append(file.name) or real(file, size))
    errors = load(deck).report.errors
    [issue] = [i for i in errors if i.code == "deck-too-large"]
    assert issue.location.file.name == "deck.yaml" and issue.location.line == 5
    assert "(5 file(s), 0.0 MB) are more than a deck may have: at most 5 files" in issue.message
    assert "cards.yaml" in opened and "4.yaml" not in opened  # deck.yaml, cards.yaml, 0..3: nothing after


def test_reading_stops_after_too_many_bytes(tmp_path, monkeypatch):
    monkeypatch.setattr(compose, "MAX_CARD_BYTES", 1000)
    deck = _copy_base(tmp_path)  # its cards.yaml alone has more than 1,000 bytes
    manifest = deck / "deck.yaml"
    manifest.write_text(manifest.read_text().replace("cards: [cards.yaml]", "cards: [cards.yaml, more.yaml]"))
    (deck / "more.yaml").write_text(_organisms(1, 1))
    [issue] = [i for i in load(deck).report.errors if i.code == "deck-too-large"]
    assert "(1 file(s)" in issue.message and "the rest were not read" in issue.message


@pytest.mark.parametrize("depth, code", [(yamlsource.MAX_DEPTH, None), (yamlsource.MAX_DEPTH + 1, "too-deep"),
                                         (900, "too-deep")])
def test_nesting_is_bounded_at_the_value_too_deep(depth, code, tmp_path):
    from cardtool.issues import Report

    file = tmp_path / "deep.yaml"
    file.write_text("a: " + "[" * depth + "]" * depth + "\n")
    report = Report()
    yamlsource.load_yaml(file, report)
    assert [i.code for i in report.errors] == ([code] if code else [])
    if depth == yamlsource.MAX_DEPTH + 1:
        assert report.errors[0].location.column == 4 + yamlsource.MAX_DEPTH


def test_an_alias_inside_the_value_it_names_is_refused(tmp_path):
    from cardtool.issues import Report

    file = tmp_path / "loop.yaml"
    file.write_text("cards:\n  - &card {id: a, again: *card}\n")
    report = Report()
    assert yamlsource.load_yaml(file, report) is None
    [issue] = report.errors
    assert issue.code == "alias-limit" and "stands inside the value it names" in issue.message
    assert issue.location.line == 2


def test_a_file_name_longer_than_file_systems_allow_is_a_located_error(tmp_path, run_cli):
    deck = _copy_base(tmp_path)
    manifest = deck / "deck.yaml"
    manifest.write_text(manifest.read_text().replace("cards: [cards.yaml]", f"cards: [cards.yaml, {'x' * 300}.yaml]"))
    code, out, err = run_cli("validate", deck)
    assert code == 1, err
    assert "deck.yaml:5:21: error[bad-value] 'cards': text 'xxx" in out
    assert "every folder and file name in a path has at most 60 characters" in out
