"""The example plugin examples/plugins/hedgerow, installed with pip (`make test` installs it), through
every command: cardtool finds the game only through its `cardtool.games` entry point. Then a few of
Hedgerow's rules, one test each, played on its own example deck.

Every output goes to tmp_path.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from tests.conftest import ROOT

PLUGIN_DIR = ROOT / "examples" / "plugins" / "hedgerow"
DECK = PLUGIN_DIR / "decks" / "hedgerow"

pytestmark = pytest.mark.skipif(
    not any(point.name == "hedgerow" for point in entry_points(group="cardtool.games")),
    reason="the example plugin is not installed: `make test` installs it "
           "(pip install -e examples/plugins/hedgerow)")


@pytest.fixture(scope="module")
def deck():
    from cardtool.deck.loader import load_deck

    return load_deck(DECK)


@pytest.fixture
def deck_copy(tmp_path) -> Path:
    folder = tmp_path / "hedgerow"
    shutil.copytree(DECK, folder)
    return folder


# -- found through its entry point ------------------------------------------------------------------

def test_the_game_is_registered_through_the_entry_point_not_the_builtin_list():
    from cardtool.games import BUILTIN, GAMES

    (point,) = [p for p in entry_points(group="cardtool.games") if p.name == "hedgerow"]
    assert point.value == "cardtool_hedgerow:PLUGIN" and "hedgerow" not in BUILTIN
    assert "hedgerow" in GAMES and GAMES["hedgerow"] is point.load()


def test_cardtool_names_no_example_plugin_in_its_own_code():
    grep = subprocess.run(["git", "grep", "-l", "cardtool_hedgerow", "--", "cardtool/"], cwd=ROOT, capture_output=True,
                          text=True)
    assert grep.stdout == "", f"cardtool's code names the example plugin: {grep.stdout}"


def test_a_fresh_cardtool_process_finds_the_game(tmp_path):
    """The console script in a new process, so nothing registered in this test session helps it."""
    result = subprocess.run([sys.executable, "-m", "cardtool", "info", str(DECK)], capture_output=True,
                            text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Hedgerow" in result.stdout and "plant" in result.stdout


# -- every command ----------------------------------------------------------------------------------

def test_validate_passes_the_example_deck(run_cli):
    code, out, err = run_cli("validate", DECK)
    assert code == 0, out + err
    assert "0 error(s), 0 warning(s)" in out


def test_validate_locates_an_unknown_habitat_with_a_suggestion(run_cli, deck_copy):
    plants = deck_copy / "plants.yaml"
    plants.write_text(plants.read_text().replace("habitat: berry, points: 3}", "habitat: bery, points: 3}", 1))
    code, out, err = run_cli("validate", deck_copy)
    assert code == 1
    assert "plants.yaml:" in out and "unknown Habitat 'bery'" in out and "berry" in out


def test_validate_refuses_a_card_field_the_plugin_schema_does_not_know(run_cli, deck_copy):
    visitors = deck_copy / "visitors.yaml"
    visitors.write_text(visitors.read_text().replace("points: 2, flavor", "pointz: 2, points: 2, flavor", 1))
    code, out, err = run_cli("validate", deck_copy)
    assert code == 1 and "visitors.yaml:" in out and "pointz" in out
    assert "Traceback" not in out + err


def test_info_counts_the_cards_by_kind_and_habitat(run_cli):
    code, out, err = run_cli("info", DECK)
    assert code == 0, err
    assert "Hedgerow" in out and "Blossom" in out and "visitor" in out
    assert "30" in out


def test_new_deck_and_expansion_start_valid_hedgerow_decks(run_cli, tmp_path):
    code, out, err = run_cli("new", "deck", "My Hedge", "--game", "hedgerow", "--dir", tmp_path)
    assert code == 0, out + err
    folder = tmp_path / "my-hedge"
    assert (folder / "deck.yaml").read_text().count("game: hedgerow") == 1
    code, out, err = run_cli("validate", folder)
    assert code == 0, out + err
    code, out, err = run_cli("new", "expansion", "Hedge Extras", "--base", folder, "--dir", tmp_path)
    assert code == 0, out + err
    code, out, err = run_cli("validate", tmp_path / "hedge-extras")
    assert code == 0, out + err
    code, out, err = run_cli("play", folder, "--players", "3", "--seed", "1", "--quiet")
    assert code == 0, out + err


def test_diff_shows_card_and_habitat_changes(run_cli, deck_copy):
    habitats = deck_copy / "habitats.yaml"
    habitats.write_text(habitats.read_text().replace("name: Leaf, colour: \"#7fb069\", bonus: 3",
                                                     "name: Leaf, colour: \"#7fb069\", bonus: 5"))
    plants = deck_copy / "plants.yaml"
    plants.write_text(plants.read_text().replace("name: Holly, habitat: berry, points: 4",
                                                 "name: Holly, habitat: berry, points: 6"))
    code, out, err = run_cli("diff", DECK, deck_copy)
    assert code == 0, err
    assert "holly" in out and "4" in out and "6" in out
    assert "Habitats" in out and "bonus: 3 -> 5" in out and "`berry` Plants worth 20 -> 22" in out
    code, out, err = run_cli("diff", DECK, deck_copy, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["habitats_changed"] == [{"habitat": "leaf", "field": "bonus", "old": 3, "new": 5}]


def test_render_cards_images_and_rulebook(run_cli, tmp_path):
    code, out, err = run_cli("render", "cards", DECK, "--only", "hawthorn,wren", "--out", tmp_path / "cards.pdf")
    assert code == 0, out + err
    assert (tmp_path / "cards.pdf").read_bytes().startswith(b"%PDF")
    code, out, err = run_cli("render", "images", DECK, "--only", "dormouse", "--dpi", "72", "--out",
                             tmp_path / "images")
    assert code == 0, out + err
    assert (tmp_path / "images" / "dormouse.png").is_file()
    code, out, err = run_cli("render", "rulebook", DECK, "--out", tmp_path / "rulebook.pdf")
    assert code == 0, out + err
    assert (tmp_path / "rulebook.pdf").read_bytes().startswith(b"%PDF")


def test_the_rulebook_example_is_scored_by_the_game(deck):
    from cardtool_hedgerow.rulebook import HedgerowRulebook

    html = HedgerowRulebook(deck).score_example([], "Ann: [hawthorn, hawthorn, dog-rose, bumblebee, brimstone, hazel]\n"
                                                    "Ben: [bramble, holly, wild-cherry, blackbird, beech, oak-sapling]",
                                                DECK / "rulebook", "4-scoring.md:8")
    # Ann: 2+2+4+3 from Plants, 1x3 + 2x3 from Visitors, the Blossom bonus; Ben: 20 + 1x3 + Berry and Leaf.
    assert "<b>23</b>" in html and "<b>29</b>" in html and "Ben wins with 29 points" in html


def test_a_rulebook_example_naming_an_unknown_card_is_a_located_error(deck):
    from cardtool.errors import RenderError
    from cardtool_hedgerow.rulebook import HedgerowRulebook

    with pytest.raises(RenderError, match=r"4-scoring.md:8: .*no card 'hawtorn'.*hawthorn"):
        HedgerowRulebook(deck).score_example([], "Ann: [hawtorn]", DECK / "rulebook", "4-scoring.md:8")


@pytest.mark.slow  # every output of a 30-card deck: about 50 s on a loaded machine
def test_build_writes_cards_images_rulebook_and_a_simulation(run_cli, tmp_path):
    out = tmp_path / "build"
    code, text, err = run_cli("build", DECK, "--out", out, "--sim-games", "20", "--dpi", "72")
    assert code == 0, text + err
    for name in ("cards.pdf", "rulebook.pdf", "index.html", "images/hawthorn.png", "sim/summary.json"):
        assert (out / name).is_file(), name


def test_play_tells_a_game_between_bots_and_logs_it(run_cli, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, err = run_cli("play", DECK, "--players", "2", "--bots", "greedy,search:iters=4", "--seed", "3",
                             "--log", log)
    assert code == 0, out + err
    assert "P1 " in out and "plants" in out and ("wins with" in out or "share the victory" in out)
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert events[0]["game"] == "hedgerow" and events[-1]["event"] == "end"
    assert sum(e["event"] == "turn" for e in events) == 24  # six turns each, two actions a turn


def test_play_at_the_terminal_shows_a_person_only_their_own_hand(run_cli, monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 40))
    code, out, err = run_cli("play", DECK, "--players", "2", "--human", "1", "--bots", "random", "--seed", "4")
    assert code == 0, out + err
    assert "Your hand:" in out and "choose 1-" in out


def test_simulate_reports_win_rates(run_cli, tmp_path, monkeypatch):
    from cardtool.sim import outputs

    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")  # the build test makes the real one
    out = tmp_path / "sim"
    code, text, err = run_cli("simulate", DECK, "--games", "30", "--bots", "greedy,random", "--seed", "2",
                              "--jobs", "1", "--out", out)
    assert code == 0, text + err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["config"]["game"] == "hedgerow" and summary["config"]["games"] == 30
    assert len((out / "games.jsonl").read_text().splitlines()) == 30
    assert "hedgerow" in (out / "report.html").read_text().lower()
    bots = summary["bots"]
    assert bots["greedy"]["win"]["rate"] > bots["random"]["win"]["rate"]  # the greedy bot plays, not at random
    assert summary["capped"]["wins"] == 0 and set(summary["breakdowns"]["points by source"]["every_seat"]) == {
        "plants", "visitors", "bonuses"}


def test_compare_and_ladder_run_the_plugin_game_and_other_games_commands_refuse_it_cleanly(
        run_cli, tmp_path, deck_copy, monkeypatch):
    from cardtool.sim import outputs

    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    code, out, err = run_cli("compare", DECK, deck_copy, "--games", "6", "--seed", "1", "--jobs", "1",
                             "--out", tmp_path / "cmp")
    assert code == 0, out + err
    code, out, err = run_cli("ladder", DECK, "--bots", "greedy,random", "--games", "6", "--seed", "1", "--jobs", "1",
                             "--out", tmp_path / "ladder")
    assert code == 0, out + err
    assert json.loads((tmp_path / "ladder" / "ladder.json").read_text())
    for argv in (("score", DECK, tmp_path / "position.yaml"), ("foodweb", DECK)):
        code, out, err = run_cli(*argv)
        assert code == 2 and "hedgerow" in (out + err).lower(), argv
        assert "Traceback" not in out + err


# -- Hedgerow's rules, one test each ------------------------------------------------------------------

def _game(deck, players=2, seed=1):
    from cardtool_hedgerow import PLUGIN

    return PLUGIN.new_game(deck, players, "standard", seed)


def test_the_deal_gives_three_secret_cards_each_and_a_verge_of_three(deck):
    state = _game(deck, 3).new_initial_state()
    assert [len(hand) for hand in state.hands] == [3, 3, 3] and len(state.verge) == 3
    assert len(state.pile) == deck.size - 12


def test_a_turn_is_a_take_then_a_plant(deck):
    from cardtool_hedgerow.engine import Plant, Take

    state = _game(deck).new_initial_state()
    assert all(isinstance(a, Take) for a in state.legal_actions())
    state.apply(Take(None))
    assert len(state.hands[0]) == 4 and all(isinstance(a, Plant) for a in state.legal_actions())
    state.apply(state.legal_actions()[0])
    assert state.current_player == 1 and len(state.hedgerows[0]) == 1 and len(state.hands[0]) == 3


def test_a_verge_card_taken_is_refilled_from_the_pile_and_known_to_everyone(deck):
    from cardtool_hedgerow.engine import Take

    state = _game(deck).new_initial_state()
    taken, top = state.verge[1], state.pile[-1]
    state.apply(Take(1))
    assert state.verge[1] == top and taken in state.hands[0]
    assert taken in state.observation(1).known[0]  # the other seat saw it taken
    assert state.pile[-1] not in state.observation(1).hand


def test_the_verge_shrinks_once_the_pile_is_empty(deck):
    from cardtool_hedgerow.engine import Take

    state = _game(deck).new_initial_state()
    state.pile.clear()
    state.apply(Take(0))
    assert len(state.verge) == 2 and Take(None) not in state.legal_actions()


def test_the_game_ends_after_six_turns_each(deck):
    game = _game(deck, 2, seed=9)
    state = game.new_initial_state()
    rng = random.Random(9)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    assert state.turns_played == 12 and all(len(h) == 6 for h in state.hedgerows)
    assert state.end_reason == "complete" and state.winners()


def test_visitors_score_per_plant_of_their_habitat_and_the_most_plants_win_the_bonus(deck):
    from cardtool_hedgerow.model import CardTable
    from cardtool_hedgerow.scoring import score_table

    table = CardTable.of(deck)
    n = table.index
    ann = [n["hawthorn"], n["dog-rose"], n["bumblebee"], n["holly"]]  # Blossom 2, Berry 1
    ben = [n["rowan"], n["bramble"], n["hazel"]]  # Berry 2, Leaf 1
    a, b = score_table(table, [ann, ben])
    assert (a.plants, a.visitors, a.bonuses) == (2 + 4 + 4, 1 * 2, ("blossom",))
    assert (b.plants, b.visitors, b.bonuses) == (3 + 2 + 3, 0, ("berry", "leaf"))
    assert a.total == 10 + 2 + 3 and b.total == 8 + 6


def test_tied_players_each_score_a_habitat_bonus(deck):
    from cardtool_hedgerow.model import CardTable
    from cardtool_hedgerow.scoring import score_table

    table = CardTable.of(deck)
    a, b = score_table(table, [[table.index["hazel"]], [table.index["ivy"]]])
    assert a.bonuses == b.bonuses == ("leaf",)


def test_a_deck_too_small_for_two_players_is_warned_about_and_refused_by_play(run_cli, deck_copy):
    (deck_copy / "deck.yaml").write_text((deck_copy / "deck.yaml").read_text().replace("  - plants.yaml\n", ""))
    code, out, err = run_cli("validate", deck_copy)
    assert code == 0 and "table-size" in out
    code, out, err = run_cli("play", deck_copy, "--seed", "1")
    assert code != 0 and "cannot be played" in out + err and "Traceback" not in out + err


def _places(state) -> list[int]:
    return sorted([*state.pile, *state.verge, *(c for hand in state.hands for c in hand),
                   *(c for hedgerow in state.hedgerows for c in hedgerow)])


@pytest.mark.parametrize("players", [2, 3])
def test_every_card_stays_in_exactly_one_place_and_known_cards_are_in_hand(deck, players):
    from cardtool_hedgerow.model import CardTable

    everything = sorted(CardTable.of(deck).physical())
    for seed in range(5):
        state = _game(deck, players, seed).new_initial_state()
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            assert _places(state) == everything
            for hand, known in zip(state.hands, state.known):
                assert not [c for c in set(known) if known.count(c) > hand.count(c)]
            assert len(state.hands[state.current_player if not state.is_over() else 0]) in (3, 4)


#: Stored playthroughs (seat bots, seed) -> final scores and a digest of the action list, recorded when the
#: game was written: a change to the rules, the deal or the bots' choices shows here.
PLAYTHROUGHS = {
    ("greedy,random", 1): ((31, 10), "d88bb4d67812f90b"),
    ("greedy,random", 2): ((28, 16), "67d352f616d64ba0"),
    ("greedy,random", 3): ((24, 27), "65e2a7c513534229"),
    ("greedy,greedy,random", 1): ((25, 33, 19), "362af14120948707"),
    ("greedy,greedy,random", 2): ((26, 22, 25), "fd5b04a874a4e541"),
    ("greedy,greedy,random", 3): ((28, 29, 18), "566d48b38223ca37"),
}


@pytest.mark.parametrize("bots, seed", list(PLAYTHROUGHS))
def test_stored_playthroughs_replay_exactly(deck, bots, seed):
    import hashlib

    from cardtool.engine.bots import make_bots
    from cardtool.engine.playout import action_json, play
    from cardtool_hedgerow import PLUGIN

    names = bots.split(",")
    game = PLUGIN.new_game(deck, len(names), "standard", seed)
    state = play(game, make_bots(names, PLUGIN.bots, game))
    digest = hashlib.sha256(json.dumps([action_json(a) for a in state.history]).encode()).hexdigest()[:16]
    assert (tuple(state.scores()), digest) == PLAYTHROUGHS[bots, seed]
