"""The single-player game as the rulebook's note has it: "Don't recycle the discard pile", and
"multiplayer effects or ones that confer unfair advantages in the single player game ... can't be used".
"""

from __future__ import annotations

import dataclasses
import statistics

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.playout import play
from cardtool.games.ecologies import effects
from cardtool.games.ecologies.actions import Play, UseBonus
from cardtool.games.ecologies.bots import BOTS
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.ecologies.model import Biome, Factor
from cardtool.games.ecologies.scenario import position
from tests.conftest import DECKS, ROOT

#: What the note excludes in the shipped decks, by card id (a biome: its bonus), and why.
EXCLUDED = {
    "ecologies-bizarre-biomes": {
        "vernal-pool", "chaparral", "urban", "cave",  # bonuses: hit an opponent, or recycle the discard
        "invasive-species", "wildfire", "drought", "mycorrhizal-network", "flood-pulse",
    },
    "frozen-and-deep": {
        "vernal-pool", "chaparral", "urban", "cave", "invasive-species", "wildfire", "drought",
        "mycorrhizal-network", "flood-pulse",
        "tundra", "permafrost-thaw", "black-smoker-eruption", "polar-night",
    },
}


@pytest.fixture(scope="module", params=sorted(EXCLUDED))
def deck(request):
    return load_deck(DECKS / request.param)


def card_effects(card):
    return card.bonus if isinstance(card, Biome) else card.effects if isinstance(card, Factor) else ()


def excluded_cards(deck) -> set[str]:
    return {card.id for card in deck.cards if card_effects(card)
            and all(effects.single_excluded(e) for e in card_effects(card))}


def test_every_card_and_bonus_the_note_excludes_is_marked_in_the_data(deck):
    assert excluded_cards(deck) == EXCLUDED[deck.manifest.id]
    for card in deck.cards:  # marked in the data itself, not only by the engine's recycling rule
        for effect in card_effects(card):
            if effects.single_excluded(effect):
                assert effect.multiplayer_only, card.id


def test_the_rules_page_lists_every_excluded_card_and_bonus(deck):
    text = (ROOT / "docs" / "rules" / "ecologies.md").read_text(encoding="utf-8")
    section = text[text.index("#### Excluded from the single-player game"):]
    for card_id in EXCLUDED[deck.manifest.id]:
        assert deck.card(card_id).name in section, card_id


def test_an_excluded_factor_card_cannot_be_played_alone_and_so_is_discarded_or_spent(deck):
    state = position(EcologiesGame(deck, 1, "single"), hands={0: ["flood-pulse", "drought", "mycorrhizal-network",
                                                                   "el-nino-rains"]}, discard=["toyon"])
    table = state.game.table
    playable = {table.ids[a.card] for a in state.legal_actions() if isinstance(a, Play)}
    assert playable == {"el-nino-rains"}


def test_a_healthy_cave_gives_no_bonus_alone_and_does_in_the_multiplayer_game():
    base = load_deck(DECKS / "ecologies-bizarre-biomes")
    web = [(0, "cave", ["sulfur-oxidizing-bacteria", "cave-amphipod", "cave-springtail", "cave-spider",
                        "cave-centipede"])]
    alone = position(EcologiesGame(base, 1, "single"), ecologies=web, discard=["toyon"])
    table = position(EcologiesGame(base, 2, "multi"), ecologies=web, discard=["toyon"])
    assert not any(isinstance(a, UseBonus) for a in alone.legal_actions())
    assert any(isinstance(a, UseBonus) for a in table.legal_actions())


def test_a_recycling_word_is_never_usable_alone_even_when_a_deck_forgets_to_mark_it():
    base = load_deck(DECKS / "ecologies-bizarre-biomes")
    flood = base.card("flood-pulse")
    unmarked = dataclasses.replace(flood, effects=tuple(dataclasses.replace(e, multiplayer_only=False)
                                                        for e in flood.effects))
    deck = dataclasses.replace(base, cards=tuple(unmarked if c.id == "flood-pulse" else c for c in base.cards))
    state = position(EcologiesGame(deck, 1, "single"), hands={0: ["flood-pulse"]}, discard=["toyon"])
    assert not any(isinstance(a, Play) for a in state.legal_actions())


@pytest.mark.parametrize("bot", ["greedy", "random", "search"])
def test_single_player_games_never_move_a_discarded_card_back(deck, bot):
    """By any route: the discard pile only grows, and no card is taken from it or reshuffled."""
    def on_turn(before, action, after):
        assert after.discard[:len(before.discard)] == before.discard

    for seed in range(2 if bot == "search" else 12):
        game = EcologiesGame(deck, 1, "single", seed)
        state = play(game, [BOTS[bot](game.public(0))], on_turn=on_turn)
        assert state.is_over()
        assert not [e for e in state.events if e[1] in ("take", "reshuffle")]


def single_scores(deck, seeds) -> list[float]:
    scores = []
    for seed in seeds:
        game = EcologiesGame(deck, 1, "single", seed)
        scores.append(float(play(game, [BOTS["greedy"](game.public(0))]).scores()[0]))
    return scores


def test_single_player_scores_drop_once_the_discard_pile_is_not_recycled(deck, monkeypatch):
    """The same seeds under the old reading (Cave and take-from-discard cards usable alone) score more:
    seed by seed, by more than twice the standard error of the mean difference."""
    seeds = range(60)
    by_the_rules = single_scores(deck, seeds)

    def unmark(card):
        if not card_effects(card) or not any(e.action in effects.RECYCLING_WORDS for e in card_effects(card)):
            return card
        freed = tuple(dataclasses.replace(e, multiplayer_only=e.target != "you" or e.action == "draw_from_discard")
                      for e in card_effects(card))
        return dataclasses.replace(card, **({"bonus": freed} if isinstance(card, Biome) else {"effects": freed}))

    recycling = dataclasses.replace(deck, cards=tuple(unmark(c) for c in deck.cards))
    monkeypatch.setattr(effects, "RECYCLING_WORDS", ("draw_from_discard",))
    with_recycling = single_scores(recycling, seeds)
    gains = [after - before for before, after in zip(by_the_rules, with_recycling)]
    error = statistics.stdev(gains) / len(gains) ** 0.5
    assert statistics.mean(gains) > 2 * error
    assert sum(g > 0 for g in gains) > sum(g < 0 for g in gains)
