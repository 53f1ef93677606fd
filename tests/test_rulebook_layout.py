"""The shipped rulebooks read like a published booklet: no page left nearly empty, short tables never split,
food webs printed two a page with readable labels, a real card drawn with its parts named, and none of the
tool's own words (file names, directives, zero counts) reaching players."""

from __future__ import annotations

import re

import pytest

from cardtool.deck.loader import load_deck
from cardtool.render.rulebook import rulebook_pdf
from cardtool.render.sheets import PAPERS
from tests.conftest import DECKS

MM = 72 / 25.4  # PDF points per mm
TOP, BOTTOM = 18, 20  # the rulebook's page margins (mm), where only the running head and folio print
DPI = 40
#: A page other than the last must be inked at least this far down its text area; the last page must hold
#: more than a stray line (three contents lines or a colophon alone come to about 5%).
FILLED, LAST_FILLED = 0.5, 0.1
#: Words of the tool, not of the game: file names, directive names, a count of nothing.
TOOL_WORDS = (r"\.ya?ml\b", r"\.json\b", r"\.md\b", r"cardtool:", r"\bdeck\.yaml\b", r"\bexamples/",
              r"\bof which 0\b", r"(?<![.\d])\b0 (?:live|are|have|of)\b", r"\bscoring engine\b", r"\bYAML\b", r"\bschema\b")


def page_fill(pdf: bytes) -> list[float]:
    """For each page, how far down its text area (between the margins) the lowest ink lies, 0 to 1."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    fills = []
    try:
        for page in document:
            image = page.render(scale=DPI / 72).to_pil().convert("L")
            width, height = image.size
            px_per_mm = height / (page.get_height() / MM)
            top, bottom = int(TOP * px_per_mm), int(height - BOTTOM * px_per_mm)
            pixels = image.load()
            lowest = top
            for y in range(bottom - 1, top, -1):
                if any(pixels[x, y] < 200 for x in range(0, width, 2)):
                    lowest = y
                    break
            fills.append((lowest - top) / (bottom - top))
    finally:
        document.close()
    return fills


def page_texts(pdf: bytes) -> list[str]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        return [" ".join(page.get_textpage().get_text_range().split()) for page in document]
    finally:
        document.close()


def check_booklet(pdf: bytes) -> list[str]:
    """Every near-empty page and every tool word, as messages (empty when the book is clean)."""
    problems = []
    fills = page_fill(pdf)
    for number, fill in enumerate(fills, 1):
        least = LAST_FILLED if number == len(fills) else FILLED
        if fill < least:
            problems.append(f"page {number} is {fill:.0%} full (at least {least:.0%} wanted)")
    for number, text in enumerate(page_texts(pdf), 1):
        for pattern in TOOL_WORDS:
            for found in re.finditer(pattern, text):
                problems.append(f"page {number}: tool word {found.group(0)!r} in "
                                f"...{text[max(found.start() - 40, 0):found.end() + 40]}...")
    return problems


@pytest.fixture(scope="module")
def books():
    made = {}
    for deck, paper in (("ecologies-bizarre-biomes", "a4"), ("symbiosis", "a4"), ("symbiosis", "letter")):
        made[deck, paper] = rulebook_pdf(load_deck(DECKS / deck), PAPERS[paper])[0]
    return made


@pytest.mark.parametrize("deck, paper", [("ecologies-bizarre-biomes", "a4"), ("symbiosis", "a4"),
                                         ("symbiosis", "letter")])
def test_shipped_rulebook_has_no_near_empty_page_and_no_tool_words(books, deck, paper):
    assert check_booklet(books[deck, paper]) == []


@pytest.mark.slow
def test_expansion_rulebook_has_no_near_empty_page_and_no_tool_words():
    pdf, _ = rulebook_pdf(load_deck(DECKS / "frozen-and-deep"), PAPERS["a4"])
    assert check_booklet(pdf) == []


def test_the_check_finds_a_page_holding_one_line_and_a_file_name():
    from weasyprint import HTML

    pdf = HTML(string="<style>@page { size: A4; margin: 18mm 17mm 20mm }</style>"
                      "<p>" + "A line of rules. " * 150 + "</p><p style='break-before: page'>"
                      "See examples/worked-example.yaml.</p>").write_pdf()
    problems = check_booklet(pdf)
    assert any(p.startswith("page 2 is") for p in problems)
    assert any("tool word '.yaml'" in p for p in problems)


def test_every_card_kind_is_drawn_with_its_parts_named(books):
    ecologies = " ".join(page_texts(books["ecologies-bizarre-biomes", "a4"]))
    for words in ("Reading the cards", "Trophic roles", "Eats and Eaten by", "Healthy ecology bonus",
                  "Where it goes", "An organism:", "A biome:", "A factor card:", "at its printed size"):
        assert words in ecologies
    symbiosis = " ".join(page_texts(books["symbiosis", "a4"]))
    for words in ("Reading the cards", "Season", "How it scores", "Which pond it counts"):
        assert words in symbiosis


def test_food_webs_print_at_one_readable_size():
    from cardtool.games.ecologies.render.foodweb_svg import picture

    deck = load_deck(DECKS / "frozen-and-deep")
    text_width = PAPERS["a4"].width - 34  # mm across the page between its margins
    for code in deck.biome_codes:
        web = picture(deck, code)
        pt_per_unit = text_width / web.width * MM
        assert 10.5 * pt_per_unit >= 6.5, code  # role labels and the healthy-web marks
        assert 11 * pt_per_unit >= 7, code  # organism names
        assert text_width * web.height / web.width < 115, code  # two webs and captions fit a page


def test_the_component_list_never_counts_nothing():
    from cardtool.games.ecologies.render.rulebook import EcologiesRulebook

    deck = load_deck(DECKS / "frozen-and-deep", standalone=True)
    notes = " ".join(EcologiesRulebook(deck).components().notes)
    assert "of which 0" not in notes
