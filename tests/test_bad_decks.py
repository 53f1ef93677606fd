"""Every broken deck in tests/data/bad gets a located, readable error and exit 1, never a traceback."""

from __future__ import annotations

import pytest

from cardtool.deck.loader import load
from tests.conftest import DATA

BAD = DATA / "bad"

# case: (file, line, column, code, card, words the message or hint must contain)
CASES = {
    "yaml-syntax": ("cards.yaml", 23, 7, "yaml-syntax", None, "started at line 22"),
    "wrong-type": ("cards.yaml", 24, 12, "bad-type", "caddisfly-larva", "expected a whole number"),
    "missing-field": ("cards.yaml", 18, 5, "missing-field", "caddisfly-larva", "'name'"),
    "misspelt-key": ("cards.yaml", 24, 5, "unknown-key", "caddisfly-larva", "did you mean 'eats'?"),
    "bad-enum": ("cards.yaml", 22, 13, "bad-value", "caddisfly-larva", "did you mean 'C1'?"),
    "duplicate-key": ("cards.yaml", 24, 5, "duplicate-key", None, "first at line 23"),
    "duplicate-id": ("more.yaml", 2, 9, "duplicate-id", "green-algae", "cards.yaml:10:9"),
    "unknown-ref": ("cards.yaml", 24, 12, "unknown-ref", "caddisfly-larva", "did you mean 'green-algae'?"),
    "empty-file": ("cards.yaml", 1, 1, "empty-file", None, "empty"),
    "non-utf8": ("cards.yaml", 20, 22, "encoding", None, "not UTF-8"),
    "alias-bomb": ("cards.yaml", 1, 1, "alias-limit", None, "alias"),
    "python-tag": ("cards.yaml", 12, 11, "yaml-tag", None, "!!python/object/apply:os.system"),
    "float-vp": ("cards.yaml", 15, 9, "bad-value", "green-algae", '"1/2"'),
    "unknown-game": ("deck.yaml", 4, 7, "bad-value", None, "did you mean 'ecologies'?"),
    "missing-card-file": ("deck.yaml", 5, 9, "missing-file", None, "did you mean 'cards.yaml'?"),
}


def test_every_corpus_deck_has_a_case():
    assert sorted(p.name for p in BAD.iterdir() if p.is_dir()) == sorted(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_deck_reports_located_error(case):
    file, line, column, code, card, words = CASES[case]
    report = load(BAD / case).report
    matching = [i for i in report.errors if i.code == code]
    assert matching, report.format()
    issue = matching[0]
    assert issue.location.file.name == file
    assert issue.location.file.parent.name == case
    assert (issue.location.line, issue.location.column) == (line, column)
    assert issue.card == card
    assert words in issue.format()


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_deck_cli_exits_1_without_traceback(case, run_cli):
    code, out, err = run_cli("validate", BAD / case)
    assert code == 1
    assert "Traceback" not in out + err
    assert f"error[{CASES[case][3]}]" in out
    assert "FAILED" in out


def test_python_tag_is_never_executed(tmp_path, monkeypatch):
    import os

    called = []
    monkeypatch.setattr(os, "system", lambda *a: called.append(a))
    load(BAD / "python-tag")
    assert called == []


def test_all_problems_reported_in_one_run(tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "deck.yaml").write_text((BAD / "misspelt-key" / "deck.yaml").read_text())
    text = (BAD / "misspelt-key" / "cards.yaml").read_text()
    text = text.replace("    roles: [C1]", "    roles: [C11]").replace("    vp: 1\n", "    vp: 1\n    count: three\n")
    (deck / "cards.yaml").write_text(text)
    codes = sorted(i.code for i in load(deck).report.errors)
    assert codes == ["bad-type", "bad-value", "missing-field", "unknown-key"]


def test_info_on_bad_deck_exits_1_and_shows_the_errors(run_cli):
    code, out, err = run_cli("info", BAD / "unknown-ref")
    assert code == 1
    assert "error[unknown-ref]" in err
    assert "Traceback" not in err
