"""The rulebook is generated from the deck: counts, tables and the worked example come from the data."""

from __future__ import annotations

import shutil

import io
from collections import Counter

import pytest
from pypdf import PdfReader

from cardtool.deck.loader import load_deck
from cardtool.errors import RenderError
from cardtool.games.symbiosis.position import load_position
from cardtool.games.symbiosis.table import CardTable
from cardtool.render.rulebook import markdown_chapters, rulebook_pdf, Slugs
from cardtool.render.sheets import PAPERS
from tests.conftest import DATA, DECKS


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture(scope="module")
def ecologies():
    deck = load_deck(DECKS / "ecologies-bizarre-biomes")
    pdf, pages = rulebook_pdf(deck, PAPERS["a4"])
    return deck, pdf, pages, " ".join(text_of(pdf).split())


def test_component_counts_come_from_the_deck(ecologies):
    deck, _, _, text = ecologies
    kinds = Counter()
    for card in deck.cards:
        kinds[card.kind] += card.count
    line = (f"{deck.size} cards: {kinds['organism']} organisms, {kinds['biome']} biomes, "
            f"{kinds['factor']} factor cards")
    assert line == "108 cards: 77 organisms, 21 biomes, 10 factor cards"  # what the published rulebook says
    assert line in text


def test_reference_chapters_list_every_biome_factor_and_card(ecologies):
    deck, _, _, text = ecologies
    for biome in deck.biomes:
        assert biome.name in text and biome.code in text
    for card in deck.cards:
        assert card.name.split()[0] in text
    for heading in ("Contents", "Components", "Biomes", "Trophic roles", "Factor cards", "Food webs", "Card index",
                    "Your turn", "Healthy ecologies"):
        assert heading in text


def test_contents_have_page_numbers_and_pages_are_numbered(ecologies):
    _, pdf, pages, _ = ecologies
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == pages > 8
    cover = " ".join(reader.pages[0].extract_text().split())
    assert "Biomes" in cover and any(f". {n}" in cover or f".{n}" in cover for n in range(3, pages + 1))
    assert reader.pages[4].extract_text().strip().splitlines()[-1].strip() == "5"


def test_symbiosis_worked_example_is_scored_by_the_engine():
    deck = load_deck(DECKS / "symbiosis")
    text = " ".join(text_of(rulebook_pdf(deck, PAPERS["letter"])[0]).split())
    table = CardTable.of(deck)
    position = load_position(DECKS / "symbiosis" / "examples" / "worked-example.yaml", table)
    emma = position.breakdown(table)[0]
    expected = " + ".join(str(c.total) for c in emma.columns) + f" = {emma.total}"
    assert expected == "7 + 17 + 9 = 33"
    assert expected in text
    assert f"{deck.size} cards: 9 Frogs, 9 Snails, 9 Dragonflies, 9 Fish" in text


def test_rulebook_sections_are_checked_by_validate(run_cli, tmp_path):
    deck = tmp_path / "deck"
    shutil.copytree(DATA / "render" / "art", deck, ignore=shutil.ignore_patterns("deck.yaml", "rules.md"))
    (deck / "deck.yaml").write_text("id: d\nname: D\nversion: '1'\ngame: ecologies\ncards: [cards.yaml]\n"
                                    "rulebook: [rules.md]\n")
    (deck / "rulez.md").write_text("# Rules\n")
    code, out, _ = run_cli("validate", deck)
    assert code == 0 and "warning[missing-rulebook]" in out and "rulebook section 'rules.md' not found" in out
    assert "did you mean 'rulez.md'" in out
    code, _, err = run_cli("render", "rulebook", deck, "--out", tmp_path / "r.pdf")
    assert code == 1 and "cannot read this rulebook section" in err and "Traceback" not in err


def test_prose_needs_a_title_and_known_directives(tmp_path):
    bad = tmp_path / "bad.md"
    bad.write_text("Some text before any title.\n")
    with pytest.raises(RenderError, match="bad.md:1: a rulebook section starts with a '# Title' line"):
        markdown_chapters([bad], {}, Slugs())
    bad.write_text("# Title\n\n```cardtool:scroe x.yaml\n```\n")
    with pytest.raises(RenderError, match="unknown rulebook directive 'cardtool:scroe'; did you mean 'score'"):
        markdown_chapters([bad], {"score": None}, Slugs())


def test_markdown_is_text_not_html(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# Title\n\n<script>alert(1)</script> and <b>bold</b>\n")
    [chapter] = markdown_chapters([page], {}, Slugs())
    assert "<script>" not in chapter.html and "&lt;script&gt;" in chapter.html


def test_a_deck_without_sections_still_gets_a_rulebook(run_cli, tmp_path):
    code, out, err = run_cli("render", "rulebook", DATA / "foodweb" / "valid", "--out", tmp_path / "r.pdf")
    assert code == 0, err
    assert "no rulebook sections yet" in " ".join(text_of((tmp_path / "r.pdf").read_bytes()).split())
