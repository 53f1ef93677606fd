"""`cardtool arrange`: the solver for designers, with rows, health, reasons, and clean errors."""

from __future__ import annotations

from tests.conftest import DATA, DECKS

BASE = DECKS / "ecologies-bizarre-biomes"
CAVE_WEB = ["sulfur-oxidizing-bacteria", "cave-amphipod", "cave-springtail", "cave-spider", "cave-centipede"]


def test_arrange_prints_the_rows_top_first_and_says_the_web_is_healthy(run_cli):
    code, out, err = run_cli("arrange", BASE, "--biome", "CAV", *CAVE_WEB)
    assert code == 0, err
    assert out.splitlines() == [
        "CAV Cave: 5 organisms, all fed",
        "  C3  Stone Centipede",
        "  C2  Cave Spider",
        "  C1  Cave Amphipod  |  SD  Cave Springtail",
        "  P   Sulfur-oxidizing Bacteria",
        "healthy: P, C1, C2, C3 and SD are each filled",
    ]


def test_arrange_says_which_roles_are_missing_and_why_a_card_cannot_be_fed(run_cli):
    code, out, _ = run_cli("arrange", BASE, "--biome", "CAV", "cave-spider", "cave-springtail", "great-blue-heron")
    assert code == 1
    assert "CAV Cave: 3 organisms, 0 fed" in out
    assert "not healthy: nothing acts as P, C1, C2, C3, SD" in out
    assert ("cannot be fed: cave-springtail: as C1 it eats none of these cards (it eats iron-oxidizing-bacteria); "
            "as SD it needs a producer in the web") in out
    assert "cannot be fed: great-blue-heron: it does not live in CAV (it lives in RIP, VER)" in out


def test_arrange_works_on_an_expansion_combined_or_alone(run_cli):
    vent = ["vent-symbiotic-bacteria", "giant-tube-worm", "vent-crab"]
    for extra in ([], ["--standalone"]):
        code, out, _ = run_cli("arrange", DECKS / "frozen-and-deep", "--biome", "VNT", *vent, *extra)
        assert code == 0 and "all fed" in out and "not healthy: nothing acts as C2, C3" in out


def test_arrange_works_on_a_small_test_deck(run_cli):
    code, out, _ = run_cli("arrange", DATA / "foodweb" / "valid", "--biome", "RIP", "algae", "mayfly", "trout",
                           "kingfisher", "eagle", "worm")
    assert code == 0 and "  C4  Eagle" in out and "healthy: P, C1, C2, C3 and SD" in out


def test_an_unknown_card_id_is_an_error_with_did_you_mean(run_cli):
    code, out, err = run_cli("arrange", BASE, "--biome", "CAV", "cave-amphipd")
    assert code == 1 and "no card 'cave-amphipd'; did you mean 'cave-amphipod'?" in err
    assert out == "" and "Traceback" not in err


def test_usage_errors_exit_2_with_a_suggestion(run_cli):
    cases = [
        (["--biome", "cav", "cave-amphipod"], "--biome cav: the deck has no such biome; did you mean 'CAV'?"),
        (["--biome", "CAV", "cave", "cave-amphipod"], "cave is a biome card: arrange takes organisms"),
        (["--biome", "CAV", "cave-spider", "cave-spider"], "cave-spider is given 2 times but the deck has 1 copy"),
    ]
    for args, message in cases:
        code, _, err = run_cli("arrange", BASE, *args)
        assert code == 2 and message in err and "Traceback" not in err
    code, _, err = run_cli("arrange", DECKS / "symbiosis", "--biome", "CAV", "x")
    assert code == 2 and "works on Ecologies decks" in err
    code, _, err = run_cli("arrange", BASE, "cave-spider")
    assert code == 2 and "--biome" in err
