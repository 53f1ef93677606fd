"""The printed Symbiosis rulebook states the River and what the side columns count exactly as the engine
plays them: the `cardtool:table` directive writes them from cardtool.games.symbiosis.layout.MODES."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtool.deck.loader import load_deck
from cardtool.errors import RenderError
from cardtool.games.symbiosis import layout
from cardtool.games.symbiosis.engine import SymbiosisGame
from cardtool.games.symbiosis.layout import MODES, RIVER
from cardtool.render.rulebook import Slugs, markdown_chapters
from cardtool.games.symbiosis.render.rulebook import SymbiosisRulebook
from tests.conftest import DECKS


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS / "symbiosis")


def table_html(deck, *modes: str) -> str:
    return str(SymbiosisRulebook(deck).table_of_modes(list(modes), "", Path("."), "test"))


def test_the_table_states_every_modes_river_as_the_engine_deals_it(deck):
    html = table_html(deck)
    for name, mode in MODES.items():
        game = SymbiosisGame(deck, mode.players(deck.size)[-1], name, seed=1)
        state = game.new_initial_state()
        hidden = sum(1 for up in state.river_up if not up)
        expected = f"{len(state.river)} cards, " + (f"{len(state.river) - hidden} face up and {hidden} face down"
                                                     if hidden else "all face up")
        row = html[html.index(f"<b>{name.capitalize()}</b>"):]
        assert expected in row.split("</tr>")[0], name


def test_the_duel_rivers_side_is_the_one_the_engine_scores(deck):
    html = table_html(deck, "duel")
    faces = SymbiosisGame(deck, 2, "duel").faces
    sides = {seat: ("right" if right == RIVER else "left") for seat, (left, right) in enumerate(faces)}
    assert sides == {0: "right", 1: "left"}
    assert "on the first player&#39;s right and the second player&#39;s left" in html
    rows = re.findall(r"<td>(first|second) player</td><td>([^<]+)</td><td>([^<]+)</td>", html)
    assert rows == [("first", "your opponent&#39;s pond", "the River&#39;s cards"),
                    ("second", "the River&#39;s cards", "your opponent&#39;s pond")]


def test_the_table_follows_the_constants_when_they_change(deck, monkeypatch):
    class MirroredDuel(layout.Duel):
        river_size, river_hidden = 6, 2

        def faces(self, players):
            return ((RIVER, 1), (0, RIVER))

    monkeypatch.setitem(MODES, "duel", MirroredDuel())
    html = table_html(deck, "duel")
    assert "6 cards, 4 face up and 2 face down" in html
    assert "on the first player&#39;s left and the second player&#39;s right" in html


def test_the_setup_chapter_prints_the_table_and_never_says_middle_of_the_table(deck):
    rulebook = SymbiosisRulebook(deck)
    chapters = markdown_chapters(deck.manifest.rulebook, rulebook.directives(), Slugs())
    text = "\n".join(str(c.html) for c in chapters)
    setup = next(str(c.html) for c in chapters if c.title == "Setting up")
    assert '<table class="modes">' in setup and "4 cards, all face up" in setup
    assert "middle of the table" not in text


def test_an_unknown_mode_in_the_directive_is_a_render_error(deck):
    with pytest.raises(RenderError, match="no Symbiosis mode dual"):
        table_html(deck, "dual")
