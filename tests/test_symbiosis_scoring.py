"""Symbiosis scoring, one test per rule of the rulebook, the worked example and each common mistake.

The rules are tested on the cards as shipped at 0.1.0 (a copy in tests/data/symbiosis/deck-0.1.0): their
sums name those points, which balancing the shipped deck may change. The worked example is tested on the
shipped deck: its position file carries the printed values of Emma's cards, so it stays true whatever
points the deck's cards are tuned to (the example pins the scoring rules, not the deck's values)."""

from __future__ import annotations

import pytest

from cardtool.deck.loader import load_deck
from cardtool.games.symbiosis import scoring
from cardtool.games.symbiosis.engine import SymbiosisGame, SymbiosisState
from cardtool.games.symbiosis.layout import MODES, POND, RIVER
from cardtool.games.symbiosis.position import load_position
from cardtool.games.symbiosis.table import CardTable
from cardtool.games.symbiosis.text import Names, result_lines
from dataclasses import replace

from tests.conftest import DATA, DECKS

WORKED_EXAMPLE = DECKS / "symbiosis" / "examples" / "worked-example.yaml"


@pytest.fixture(scope="module")
def table() -> CardTable:
    return CardTable.of(load_deck(DATA / "symbiosis" / "deck-0.1.0"))


@pytest.fixture(scope="module")
def shipped() -> CardTable:
    return CardTable.of(load_deck(DECKS / "symbiosis"))


def pond(table, *ids):
    """Eight card numbers: top row left to right, then bottom row."""
    assert len(ids) == POND
    return tuple(table.number(i) for i in ids)


# Fillers that match nothing the tested cards count (no fish, no pink, no snail, no frog).
FILLER = ("winter-dragonfly-4", "summer-dragonfly-8", "autumn-dragonfly-5", "winter-dragonfly-6")


def column(breakdown, name):
    return next(c for c in breakdown.columns if c.column == name)


def test_worked_example_emma_scores_7_plus_17_plus_9_is_33(shipped):
    table = shipped
    position = load_position(WORKED_EXAMPLE, table)
    emma = position.breakdown(table)[position.names.index("Emma")]
    assert [c.total for c in emma.columns] == [7, 17, 9]
    assert emma.total == 33
    left = column(emma, "left")
    per_pink = next(c for c in left.cards if table.cards[c.card].id == "spring-frog-per-pink")
    assert (per_pink.per, per_pink.matches, per_pink.points) == (2, 2, 4)  # two pink cards in Jake's pond
    assert left.target == position.names.index("Jake")
    middle = column(emma, "middle")
    shoal = next(c for c in middle.cards if table.cards[c.card].id == "summer-fish-per-fish")
    assert (shoal.per, shoal.matches, shoal.points) == (3, 2, 6)  # two fish in her pond
    assert sorted(c.points for c in middle.cards if c.per is None) == [2, 4, 5]


# The rulebook's words for Emma's six named cards: (rule, what it counts, points).
RULEBOOK_CARDS = {"spring-frog-per-pink": ("per_season", "spring", 2), "summer-fish-per-fish": ("per_animal", "fish", 3),
                  "autumn-snail-3": ("fixed", None, 3), "winter-dragonfly-4": ("fixed", None, 4),
                  "spring-fish-5": ("fixed", None, 5), "summer-dragonfly-2": ("fixed", None, 2)}


def test_worked_example_prints_the_rulebooks_values_and_its_cards_keep_their_rules_in_the_deck(shipped):
    table = shipped
    position = load_position(WORKED_EXAMPLE, table)
    printed = {table.cards[number].id: rule for number, rule in position.printed}
    assert set(printed) == {table.cards[n].id for n in position.ponds[position.names.index("Emma")]}
    for card_id, (rule, counts, points) in RULEBOOK_CARDS.items():
        assert (printed[card_id].rule, printed[card_id].animal or printed[card_id].season,
                printed[card_id].points) == (rule, counts, points)
        deck_rule = table.cards[table.number(card_id)].scoring  # its points may be tuned, not what it counts
        assert (deck_rule.rule, deck_rule.animal or deck_rule.season) == (rule, counts)
    assert table.deck.season("spring").colour_name == "pink"


def test_worked_example_is_scored_with_its_printed_values_not_the_decks(shipped):
    # A deck whose Emma cards are all worth a point more (variable ones a point less): the example,
    # which carries its printed values, still scores 33; read from the deck, it would not.
    deck = shipped.deck
    emma = set(load_position(WORKED_EXAMPLE, shipped).ponds[0])
    cards = tuple(replace(c, scoring=replace(c.scoring, points=c.scoring.points + (-1 if c.scoring.variable else 1)))
                  if n in emma else c for n, c in enumerate(deck.cards))
    tuned = CardTable.of(replace(deck, cards=cards))
    position = load_position(WORKED_EXAMPLE, tuned)
    assert position.breakdown(tuned)[0].total == 33
    assert scoring.score_table(tuned, position.ponds, position.faces)[0].total != 33  # the deck's own values
    assert position.scored_with(tuned).points[tuned.number("summer-fish-per-fish")] == 3


def test_a_positions_printed_values_are_the_ones_scored(shipped, tmp_path):
    text = WORKED_EXAMPLE.read_text(encoding="utf-8")
    changed = tmp_path / "example.yaml"
    changed.write_text(text.replace("animal: fish, points: 3}", "animal: fish, points: 1}"), encoding="utf-8")
    emma = load_position(changed, shipped).breakdown(shipped)[0]
    assert [c.total for c in emma.columns] == [7, 13, 9]  # the Shoal at 1 per fish: 2, not 6


def test_deck_has_36_cards_four_animals_four_seasons(table):
    assert sum(table.copies) == 36 == 4 * POND + MODES["standard"].river_size
    assert sum(table.copies) >= 2 * POND + MODES["duel"].river_size
    assert {a.id for a in table.deck.animals} >= {"frog", "snail", "dragonfly", "fish"}
    assert [(s.name, s.colour_name) for s in table.deck.seasons] == [
        ("Spring", "pink"), ("Summer", "yellow"), ("Autumn", "orange"), ("Winter", "blue")]
    assert {c.scoring.rule for c in table.cards} == {"fixed", "per_animal", "per_season"}


def _three(table, emma, jake, sam):
    ponds = [pond(table, *emma), pond(table, *jake), pond(table, *sam)]
    return scoring.score_table(table, ponds, MODES["standard"].faces(3))


def test_left_column_counts_the_left_neighbours_pond(table):
    # Seat order is turn order, clockwise: Emma's left neighbour is the next seat (Jake).
    emma = ("spring-frog-per-pink", *FILLER[:3], *FILLER)
    jake = ("spring-frog-3", "spring-fish-4", "spring-snail-6", *FILLER[:1], *FILLER)
    sam = ("spring-frog-3", *FILLER[:3], *FILLER)
    first = _three(table, emma, jake, sam)[0]
    assert column(first, "left").target == 1
    assert column(first, "left").cards[0].matches == 3  # Jake's three pink cards, not Sam's one


def test_right_column_counts_the_right_neighbours_pond(table):
    emma = (*FILLER[:3], "autumn-frog-per-snail", *FILLER)
    jake = ("summer-snail-4", *FILLER[:3], *FILLER)
    sam = ("summer-snail-4", "spring-snail-6", "winter-snail-7", FILLER[0], *FILLER)
    first = _three(table, emma, jake, sam)[0]
    assert column(first, "right").target == 2
    assert column(first, "right").cards[0].points == 2 * 3  # Sam's three snails


def test_middle_columns_count_the_own_pond_including_the_card_itself(table):
    # The Shoal is a fish counting fish: in the middle it counts itself, as the worked example does.
    emma = (FILLER[0], "summer-fish-per-fish", "spring-fish-5", FILLER[1], *FILLER)
    jake = ("winter-fish-7", "summer-fish-6", *FILLER[:2], *FILLER)
    first = _three(table, emma, jake, jake)[0]
    shoal = column(first, "middle").cards[0]
    assert (shoal.matches, shoal.points) == (2, 6)


def test_a_side_card_does_not_count_itself(table):
    emma = ("summer-fish-per-fish", *FILLER[:3], *FILLER)
    first = _three(table, emma, (*FILLER, *FILLER), (*FILLER, *FILLER))[0]
    assert column(first, "left").cards[0].points == 0


def test_fixed_points_score_the_same_in_any_column(table):
    for slot in range(POND):
        cards = list(FILLER + FILLER)
        cards[slot] = "spring-fish-5"
        first = _three(table, cards, (*FILLER, *FILLER), (*FILLER, *FILLER))[0]
        scored = next(c for col in first.columns for c in col.cards if c.slot == slot)
        assert scored.points == 5


def test_common_mistake_counting_your_own_cards_for_a_side_card(table):
    # Emma's pond is full of fish; her left-column "3 per fish" counts Jake's pond, which has one.
    emma = ("summer-fish-per-fish", "spring-fish-5", "spring-fish-4", "summer-fish-6",
            "winter-fish-7", "autumn-fish-3", *FILLER[:2])
    jake = ("winter-fish-per-blue", *FILLER[:3], *FILLER)
    first = _three(table, emma, jake, (*FILLER, *FILLER))[0]
    assert column(first, "left").cards[0].points == 3 * 1


def test_common_mistake_forgetting_fixed_points_score_the_same_in_any_column(table):
    totals = set()
    for slot in (0, 1, 2, 3):  # left, middle, middle, right
        cards = ["summer-snail-4"] * POND
        cards[slot] = "winter-frog-8"
        totals.add(_three(table, cards, FILLER * 2, FILLER * 2)[0].total)
    assert totals == {8 + 7 * 4}


def test_common_mistake_in_team_mode_teams_are_compared_not_players(table):
    # Seat 0 has the best pond of the table, but its team (0 and 2) adds up less than seats 1 and 3.
    strong = pond(table, "winter-frog-8", "summer-dragonfly-8", "summer-frog-7", "winter-fish-7",
                  "winter-snail-7", "spring-snail-6", "summer-fish-6", "winter-dragonfly-6")
    weak = pond(table, "summer-dragonfly-2", "autumn-fish-3", "autumn-snail-3", "spring-frog-3",
                "spring-frog-3", "summer-snail-4", "summer-snail-4", "spring-fish-4")
    good = pond(table, "winter-frog-8", "summer-frog-7", "winter-fish-7", "spring-snail-6", "summer-fish-6",
                "winter-dragonfly-6", "autumn-frog-5", "autumn-dragonfly-5")
    ponds = [strong, good, weak, good]
    team = MODES["team"]
    totals = scoring.totals(table, ponds, team.faces(4))
    assert totals[0] > max(totals[1:])  # the best player...
    assert scoring.winners(totals, team.teams(4)) == [1, 3]  # ...is not on the winning team


def test_common_mistake_in_duel_the_rivers_hidden_cards_are_flipped_before_scoring(table):
    deck = table.deck
    game = SymbiosisGame(deck, 2, "duel", seed=1)
    ones = pond(table, *FILLER, *FILLER)
    p0 = list(ones)
    p0[3] = table.number("summer-fish-per-fish")  # seat 0's right column faces the River
    river = [table.number(i) for i in ("spring-frog-3",) * 2 + ("summer-snail-4",) * 2
             + ("winter-fish-7", "summer-fish-6", "spring-fish-5", "spring-fish-4")]
    up = tuple(True for _ in range(2 * POND))
    state = SymbiosisState(game, p0 + list(ones), up[:-1] + (False,), river,
                           (True,) * 4 + (False,) * 4, (), game.end_turn - 1, [])
    state.apply(game.swap(0, 7, None))  # the last turn: seat 1 reveals its last pond card
    assert not state.legal_actions() and state.is_over()
    assert all(state.river_up)  # the River's face-down cards are flipped at the end
    assert state.breakdown()[0].columns[2].target == RIVER
    shoal = state.breakdown()[0].columns[2].cards[0]
    assert shoal.matches == 4  # the four fish dealt face down in the River count too


def test_duel_river_side_columns_count_the_rivers_eight_cards(table):
    duel = MODES["duel"]
    assert duel.faces(2) == ((1, RIVER), (RIVER, 0))  # the River lies on P1's right and P2's left
    assert duel.river_size == 8 and duel.river_hidden == 4


def test_team_side_columns_both_count_the_partners_pond(table):
    assert MODES["team"].faces(4) == ((2, 2), (3, 3), (0, 0), (1, 1))
    assert MODES["team"].teams(4) == ((0, 2), (1, 3))


def test_a_tie_is_a_shared_victory(table):
    same = pond(table, *FILLER, *FILLER)
    totals = scoring.totals(table, [same, same, same], MODES["standard"].faces(3))
    assert scoring.winners(totals, MODES["standard"].teams(3)) == [0, 1, 2]
    assert scoring.winners([40, 52, 52], ((0,), (1,), (2,))) == [1, 2]
    assert scoring.winners([30, 20, 30, 20], ((0, 2), (1, 3))) == [0, 2]
    breakdown = scoring.score_table(table, [same, same, same], MODES["standard"].faces(3))
    [line] = result_lines(breakdown, MODES["standard"].teams(3), Names(["Ada", "Ben", "Cy"]))
    assert line.startswith("Shared victory for Ada, Ben and Cy with ") and "perfect symbiosis" in line


def test_fast_totals_equal_the_breakdown(table):
    import random

    rng = random.Random(4)
    cards = table.physical()
    for _ in range(200):
        rng.shuffle(cards)
        players = rng.choice([2, 3, 4])
        mode = MODES[{2: "duel", 3: "standard", 4: rng.choice(["standard", "team"])}[players]]
        ponds = [cards[s * POND:(s + 1) * POND] for s in range(players)]
        river = cards[players * POND:players * POND + mode.river_size]
        faces = mode.faces(players)
        assert scoring.totals(table, ponds, faces, river) == [
            b.total for b in scoring.score_table(table, ponds, faces, river)]
