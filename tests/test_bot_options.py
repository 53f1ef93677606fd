"""Bot names with options (`search:iters=400`): parsed, validated with clear usage errors, and passed to
the bot, from the registry functions and from the command line."""

from __future__ import annotations

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.bots import check_bot_names, make_bots, parse_bot_name, positive_float, positive_int
from cardtool.errors import UsageError
from cardtool.games.ecologies.bots import BOTS as ECOLOGIES_BOTS
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.symbiosis.bots import BOTS as SYMBIOSIS_BOTS
from tests.conftest import DECKS


def test_a_plain_name_has_no_options():
    assert parse_bot_name("greedy", ECOLOGIES_BOTS) == ("greedy", {})
    assert parse_bot_name(" search ", ECOLOGIES_BOTS) == ("search", {})


def test_options_are_parsed_by_the_bots_own_parsers():
    assert parse_bot_name("search:iters=400", ECOLOGIES_BOTS) == ("search", {"iters": 400})
    assert parse_bot_name("search:ms=50:width=4", ECOLOGIES_BOTS) == ("search", {"ms": 50.0, "width": 4})
    assert parse_bot_name("search:iters=30", SYMBIOSIS_BOTS) == ("search", {"iters": 30})


@pytest.mark.parametrize("name, message", [
    ("serch:iters=4", "unknown bot 'serch'; did you mean 'search'?"),
    ("search:iter=4", "bot 'search' has no option 'iter'; did you mean 'iters'?"),
    ("search:colour=red", "bot 'search' has no option 'colour' (options: iters, ms, width, depth, eval, prior, end, bias, offers, plan, buy, playdepth, aprior, aiters, playeval, policy)"),
    ("greedy:iters=4", "bot 'greedy' has no option 'iters' (options: policy)"),
    ("random:iters=4", "bot 'random' takes no options"),
    ("search:iters", "is not KEY=VALUE"),
    ("search:iters=", "is not KEY=VALUE"),
    ("search:iters=many", "bot option iters=many in 'search:iters=many': expected a whole number"),
    ("search:iters=0", "expected a whole number of at least 1"),
    ("search:ms=-5", "expected a number above 0"),
    ("search:iters=4:iters=5", "bot option 'iters' is given twice"),
])
def test_bad_names_and_options_are_usage_errors(name, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        check_bot_names([name], ECOLOGIES_BOTS)


def test_a_budget_in_both_iterations_and_time_is_refused():
    deck = load_deck(DECKS / "ecologies-bizarre-biomes")
    game = EcologiesGame(deck, 2, "multi", 3)
    with pytest.raises(UsageError, match="iters or in ms, not both"):
        make_bots(["search:iters=4:ms=10", "greedy"], ECOLOGIES_BOTS, game)


def test_make_bots_passes_the_options_to_the_bot():
    deck = load_deck(DECKS / "ecologies-bizarre-biomes")
    game = EcologiesGame(deck, 2, "multi", 3)
    search, plain = make_bots(["search:iters=7:width=2:depth=2", "search"], ECOLOGIES_BOTS, game)
    assert (search.iters, search.width, search.depth, search.ms) == (7, 2, 2, None)
    assert plain.iters == type(plain).ITERS and plain.ms is None
    timed = make_bots(["search:ms=20", "greedy"], ECOLOGIES_BOTS, game)[0]
    assert timed.ms == 20.0 and timed.iters is None


def test_value_parsers():
    assert positive_int("12") == 12 and positive_float("2.5") == 2.5
    for parser, text in ((positive_int, "1.5"), (positive_int, "-1"), (positive_float, "nan"), (positive_float, "inf")):
        with pytest.raises(ValueError):
            parser(text)


def test_the_command_line_takes_bot_options(run_cli):
    code, out, _ = run_cli("play", str(DECKS / "ecologies-bizarre-biomes"), "--players", "2",
                           "--bots", "search:iters=4,greedy", "--seed", "5")
    assert code == 0
    code, _, err = run_cli("play", str(DECKS / "ecologies-bizarre-biomes"), "--players", "2",
                           "--bots", "search:iters=lots,greedy", "--seed", "5")
    assert code == 2 and "expected a whole number" in err
