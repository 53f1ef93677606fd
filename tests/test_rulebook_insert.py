"""An expansion's rulebook insert (`render rulebook --insert`, issue 17): drawn from the expansion combined
with its base, so cards naming base biomes resolve, and showing only what the expansion brings."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from cardtool.deck.loader import load_deck
from cardtool.errors import UsageError
from cardtool.render.rulebook_insert import insert_context
from cardtool.render.sheets import PAPERS
from tests.conftest import DECKS

BASE = DECKS / "ecologies-bizarre-biomes"
#: An organism of the expansion that lives only in a base biome: the expansion alone is no game.
BASE_BIOME_ORGANISM = """
  - id: night-owl
    kind: organism
    name: Night Owl
    biomes: [VER]
    roles: [C3]
    vp: 2
    eats: [pacific-tree-frog]
    eaten_by: []
"""


def pdf_text(path) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(path.read_bytes())).pages).split())


def book_html(book) -> str:
    return " ".join(str(chapter.html) for chapter in book.chapters)


def index_names(html: str) -> set[str]:
    """The card names in the Card index table."""
    index = html.split('id="card-index"', 1)[1]
    return set(re.findall(r"<tr><td>([^<]+)</td>", index))


@pytest.fixture(scope="module")
def frozen():
    deck = load_deck(DECKS / "frozen-and-deep")
    return deck, insert_context(deck, PAPERS["a4"])


@pytest.fixture()
def scaffold(run_cli, tmp_path):
    """An expansion freshly made by `cardtool new expansion`, with an organism living only in a base biome."""
    code, _, err = run_cli("new", "expansion", "Night Shift", "--base", str(BASE), "--dir", str(tmp_path))
    assert code == 0, err
    folder = tmp_path / "night-shift"
    with (folder / "cards.yaml").open("a", encoding="utf-8") as cards:
        cards.write(BASE_BIOME_ORGANISM)
    return folder


def test_the_insert_lists_the_expansions_cards_and_not_the_bases(frozen):
    deck, book = frozen
    names = index_names(book_html(book))
    own = {card.name for card in deck.own_cards()}
    assert own <= names
    reprinted = names - own
    assert "Wildfire" in reprinted  # overridden in deck.yaml: its new text is printed
    assert reprinted < {card.name for card in deck.cards} - own  # the rest are base cards it reprints
    untouched = {"Pacific Tree Frog", "Pollinators", "Great Blue Heron"}
    assert not names & untouched


def test_the_insert_says_which_rulebook_it_goes_with(frozen):
    _, book = frozen
    assert book.kind == "Rulebook insert"
    assert book.subtitle == "An expansion for Ecologies: Bizarre Biomes"
    assert "Ecologies: Bizarre Biomes" in book.note
    titles = [chapter.title for chapter in book.chapters]
    assert titles[:2] == ["Components", "Changes to the base game"]
    assert "Frozen and Deep" in titles  # the expansion's own section
    for base_only in ("Reading the cards", "Trophic roles", "Your turn", "Healthy ecologies"):
        assert base_only not in titles  # the base rulebook has these


def test_the_insert_counts_the_expansions_own_cards(frozen):
    deck, book = frozen
    own = deck.own_cards()
    assert book.components.startswith(f"{sum(card.count for card in own)} cards: ")
    html = book_html(book)
    assert "Take these cards out" in html and "Pollinators" in html  # excluded in deck.yaml
    assert "reprinted base cards, to replace their old prints" in html


def test_the_insert_draws_the_webs_its_organisms_live_in(frozen):
    deck, book = frozen
    html = book_html(book)
    webs = set(re.findall(r'id="web-([a-z]+)"', html))
    own_biomes = {card.code.lower() for card in deck.own_cards() if card.kind == "biome"}
    assert own_biomes <= webs  # its own biomes
    assert "man" in webs and "Joining it: Whimbrel" in html  # a base biome one of its organisms joins
    assert "cav" not in webs  # a base biome it leaves as it is


@pytest.mark.slow  # lays out seven pages with four food webs (22 s measured at load 8)
def test_render_rulebook_insert_of_the_shipped_expansion(run_cli, tmp_path):
    out = tmp_path / "insert.pdf"
    code, stdout, err = run_cli("render", "rulebook", str(DECKS / "frozen-and-deep"), "--insert", "--out", str(out))
    assert code == 0, err
    text = pdf_text(out)
    assert "RULEBOOKINSERT" in text.upper().replace(" ", "")  # the cover word is letter-spaced
    assert "An expansion for Ecologies: Bizarre Biomes" in text
    assert "Arctic Fox" in text and "Deep-Sea Hydrothermal Vent" in text
    assert "Pacific Tree Frog" not in text


def test_a_scaffolded_expansion_needing_its_base_gets_an_insert(run_cli, scaffold, tmp_path):
    code, _, err = run_cli("render", "rulebook", str(scaffold), "--standalone", "--out", str(tmp_path / "alone.pdf"))
    assert code == 1
    assert "needs-base" in err and "--insert" in err  # not a stand-alone game: says what to run instead
    out = tmp_path / "insert.pdf"
    code, _, err = run_cli("render", "rulebook", str(scaffold), "--insert", "--out", str(out))
    assert code == 0, err
    text = pdf_text(out)
    assert "Night Owl" in text and "Night Shift Biome" in text
    assert "Vernal Pool" in text  # the owl's base biome: its web, as the combined game plays it
    assert "Mangrove" not in text  # a base biome the expansion does not touch


def test_insert_needs_an_expansion_combined_with_its_base(run_cli, tmp_path):
    code, _, err = run_cli("render", "rulebook", str(BASE), "--insert", "--out", str(tmp_path / "x.pdf"))
    assert code == 2 and "extends no base deck" in err
    code, _, err = run_cli("render", "rulebook", str(DECKS / "frozen-and-deep"), "--insert", "--standalone",
                           "--out", str(tmp_path / "x.pdf"))
    assert code == 2 and "exclude each other" in err
    with pytest.raises(UsageError):
        insert_context(load_deck(DECKS / "frozen-and-deep", standalone=True), PAPERS["a4"])


def test_a_symbiosis_insert_counts_only_the_expansions_cards(run_cli, tmp_path):
    code, _, err = run_cli("new", "expansion", "Pond Extras", "--base", str(DECKS / "symbiosis"), "--dir", str(tmp_path))
    assert code == 0, err
    deck = load_deck(tmp_path / "pond-extras")
    book = insert_context(deck, PAPERS["a4"])
    own = deck.own_cards()
    assert own and book.components.startswith(f"{sum(card.count for card in own)} cards: ")
    assert "Reading the cards" not in [chapter.title for chapter in book.chapters]
    assert index_names(book_html(book)) == {card.name for card in own}


def test_a_stand_alone_expansion_keeps_its_stand_alone_rulebook():
    from cardtool.render.rulebook import rulebook_context

    deck = load_deck(DECKS / "frozen-and-deep", standalone=True)  # a stand-alone game: --standalone still works
    book = rulebook_context(deck, PAPERS["a4"])
    assert book.kind == "Rulebook" and not book.note
    assert index_names(book_html(book)) == {card.name for card in deck.cards}


def test_build_writes_the_insert_of_an_expansion_only(frozen, tmp_path):
    """`cardtool build` runs the insert step for an expansion combined with its base (the demo golden pins
    frozen-and-deep's rulebook-insert.pdf) and says why it leaves it out otherwise."""
    from cardtool.render.pipeline import STEPS, BuildOptions, Context, _rulebook_insert, _rulebook_insert_skip

    step = next(step for step in STEPS if step.name == "rulebook-insert")
    assert step.skip is _rulebook_insert_skip
    context = Context(DECKS / "frozen-and-deep", BuildOptions(), tmp_path, deck=frozen[0])
    assert _rulebook_insert_skip(context) is None
    outputs, message = _rulebook_insert(context)
    assert [output.path for output in outputs] == ["rulebook-insert.pdf"] and message.endswith("pages")
    assert "Arctic Fox" in pdf_text(tmp_path / "rulebook-insert.pdf")
    for deck, alone in ((BASE, False), (DECKS / "frozen-and-deep", True), (DECKS / "symbiosis", False)):
        reason = _rulebook_insert_skip(Context(deck, BuildOptions(), tmp_path, deck=load_deck(deck, standalone=alone)))
        assert reason and "not an expansion" in reason
