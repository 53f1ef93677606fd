"""`cardtool score` and the position format: the worked example, and located errors for bad positions."""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtool.deck.loader import load, load_deck
from cardtool.games.symbiosis.position import PositionError, load_position
from cardtool.games.symbiosis.table import CardTable
from tests.conftest import DATA, DECKS

DECK = DECKS / "symbiosis"
EXAMPLES = DECK / "examples"
BAD = DATA / "symbiosis"


def test_score_reproduces_the_worked_example(run_cli):
    code, out, err = run_cli("score", DECK, EXAMPLES / "worked-example.yaml", "--player", "Emma")
    assert code == 0, err
    assert "Emma: 33 points" in out
    assert "left column (counts Jake's pond): 7" in out
    assert "middle columns (count Emma's own pond): 17" in out
    assert "right column (counts Sam's pond): 9" in out
    assert "total: 7 + 17 + 9 = 33" in out
    assert "2 per pink Season card x 2 =  4" in out and "3 per Fish x 2" in out
    assert "Jake: " not in out  # --player shows Emma only; the result line names the winner


def test_score_prints_every_player_and_the_result(run_cli):
    code, out, _ = run_cli("score", DECK, EXAMPLES / "worked-example.yaml")
    assert code == 0
    assert out.count(" points\n") >= 3 and "wins with" in out


def test_score_json(run_cli):
    code, out, _ = run_cli("score", DECK, EXAMPLES / "worked-example.yaml", "--format", "json")
    assert code == 0
    data = json.loads(out)
    emma = data["players"][0]
    assert emma["name"] == "Emma" and emma["total"] == 33
    assert [c["total"] for c in emma["columns"]] == [7, 17, 9]
    assert emma["columns"][0]["counts"] == "Jake"
    assert emma["columns"][0]["cards"][0] == {
        "id": "spring-frog-per-pink", "name": "Chorus of Spring", "slot": "top-left",
        "rule": "2 per pink Season card", "per": 2, "matches": 2, "points": 4}


def test_score_team_adds_the_two_ponds_of_each_team(run_cli):
    code, out, _ = run_cli("score", DECK, EXAMPLES / "team-example.yaml", "--format", "json")
    data = json.loads(out)
    totals = {p["name"]: p["total"] for p in data["players"]}
    assert data["teams"][0] == {"players": ["Ada", "Cy"], "total": totals["Ada"] + totals["Cy"]}
    assert data["winners"] == ["Ada", "Cy"]


def test_score_duel_counts_the_river_on_the_rivers_side(run_cli):
    code, out, _ = run_cli("score", DECK, EXAMPLES / "duel-example.yaml")
    assert code == 0
    assert "right column (counts the River's 8 cards)" in out
    assert "left column (counts the River's 8 cards)" in out


@pytest.mark.parametrize("name, code, line", [
    ("unknown-card", "unknown-ref", 6),
    ("too-many-copies", "too-many-copies", 9),
    ("player-count", "player-count", 4),
    ("short-row", "bad-value", 6),
    ("bad-neighbour", "unknown-ref", 14),
    ("duel-without-river", "missing-field", 3),
    ("misspelt-key", "unknown-key", 13),
])
def test_bad_positions_give_located_errors_and_exit_1(run_cli, name, code, line):
    exit_code, out, err = run_cli("score", DECK, BAD / f"{name}.yaml")
    assert exit_code == 1
    assert f"{name}.yaml:{line}:" in err and f"error[{code}]" in err
    assert "Traceback" not in out + err


def test_printed_values_name_known_cards_and_features_with_located_errors(run_cli, tmp_path):
    text = (EXAMPLES / "worked-example.yaml").read_text(encoding="utf-8")
    position = tmp_path / "printed.yaml"
    position.write_text(text.replace("  spring-fish-5: {rule: fixed", "  spring-fsh-5: {rule: fixed")
                        .replace("season: spring, points: 2}", "season: sprung, points: 2}"), encoding="utf-8")
    lines = position.read_text(encoding="utf-8").splitlines()
    card_line = next(i for i, line in enumerate(lines, 1) if line.startswith("  spring-fsh-5:"))
    season_line = next(i for i, line in enumerate(lines, 1) if "sprung" in line)
    code, _, err = run_cli("score", DECK, position)
    assert code == 1 and "Traceback" not in err
    assert f"printed.yaml:{card_line}:3: error[unknown-ref] printed: unknown card 'spring-fsh-5'" in err
    assert "did you mean 'spring-fish-5'?" in err
    assert f"printed.yaml:{season_line}:" in err and "counts an unknown season 'sprung'" in err


def test_unknown_card_suggests_the_nearest_id(run_cli):
    _, _, err = run_cli("score", DECK, BAD / "unknown-card.yaml")
    assert "did you mean 'spring-frog-3'?" in err


def test_a_side_column_naming_its_own_player_is_an_error(run_cli):
    _, _, err = run_cli("score", DECK, BAD / "bad-neighbour.yaml")
    assert "bad-neighbour.yaml:15:" in err and "cannot count Sam's own pond" in err
    assert "did you mean 'Jake'?" in err


def test_score_usage_errors(run_cli, tmp_path):
    code, _, err = run_cli("score", DECK, EXAMPLES / "worked-example.yaml", "--player", "Emme")
    assert code == 2 and "did you mean 'Emma'?" in err
    code, _, err = run_cli("score", DECK, tmp_path / "missing.yaml")
    assert code == 1 and "error[missing-file]" in err
    code, _, err = run_cli("score", DECKS / "ecologies-bizarre-biomes", EXAMPLES / "worked-example.yaml")
    assert code == 2 and "have none to score" in err


def test_the_deck_loader_does_not_read_example_positions():
    result = load(DECK)
    assert result.report.ok and result.deck.size == 36
    assert all("examples" not in str(doc.file) for doc in result.source.docs)


names = st.text(alphabet="abcEJ ", min_size=0, max_size=4)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), names,
                    st.sampled_from(["spring-frog-3", "river", "duel", "team", "winter-frog-8"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(st.one_of(names, scalars), inner, max_size=4)),
                      max_leaves=30)
positions = st.fixed_dictionaries({}, optional={
    "mode": st.one_of(st.sampled_from(["standard", "duel", "team"]), scalars),
    "ponds": st.one_of(values, st.dictionaries(names, st.lists(st.lists(
        st.sampled_from(["spring-frog-3", "winter-frog-8", "summer-fish-per-fish", "nope"]), max_size=5),
        max_size=3), max_size=5)),
    "river": values,
    "neighbours": st.one_of(values, st.dictionaries(names, st.dictionaries(
        st.sampled_from(["left", "right", "up"]), st.one_of(names, scalars)), max_size=3)),
    "printed": st.one_of(values, st.dictionaries(st.sampled_from(["spring-frog-3", "nope"]), st.fixed_dictionaries(
        {"rule": st.sampled_from(["fixed", "per_animal", "per_season", "odd"]), "points": scalars},
        optional={"animal": names, "season": st.sampled_from(["spring", "sprung"])}), max_size=2)),
    "extra": values,
})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(positions)
def test_any_position_file_is_scored_or_reported_never_a_crash(tmp_path, data):
    table = _table()
    file = tmp_path / "position.yaml"
    file.write_text(yaml.safe_dump(data))
    try:
        position = load_position(file, table)
    except PositionError as error:
        assert error.report.errors
    else:
        assert len(position.breakdown(table)) == len(position.names)


_TABLE = []


def _table() -> CardTable:
    if not _TABLE:
        _TABLE.append(CardTable.of(load_deck(DECK)))
    return _TABLE[0]
