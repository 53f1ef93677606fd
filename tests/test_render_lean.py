"""Card documents styled with less work (render/lean.py) are drawn exactly as before."""

from __future__ import annotations

import pytest

from cardtool.deck.loader import load_deck
from cardtool.render.cards import DeckPrint
from cardtool.render.fitting import render_html, with_sizes, write_pages
from cardtool.render.lean import PREFIX, card_html_class, shared_styles
from cardtool.render.sheets import SheetSpec
from tests.conftest import DECKS


def _sample(deck_name: str, count: int):
    deck = load_deck(DECKS / deck_name)
    spec = SheetSpec()
    deck_print = DeckPrint(deck, spec.card, spec.bleed)
    faces = [with_sizes(f, deck_print.frame) for f in deck_print.faces()]
    kinds: dict[str, list] = {}
    for face in faces:  # a few faces of every template, the back included
        kinds.setdefault(face.template, []).append(face)
    picked = [face for group in kinds.values() for face in group[:count]]
    return deck_print, deck_print.single_html(picked)


@pytest.mark.parametrize("deck_name, count", [("ecologies-bizarre-biomes", 3), ("symbiosis", 4)])
def test_lean_styling_writes_every_face_byte_for_byte_as_plain_weasyprint(deck_name, count):
    deck_print, html = _sample(deck_name, count)
    assert PREFIX in shared_styles(html)  # the faces' style attributes did move
    lean = render_html(html, deck_print.base_url, deck_print.roots, lean=True)
    plain = render_html(html, deck_print.base_url, deck_print.roots)
    assert len(lean.pages) == len(plain.pages) > count
    assert write_pages(lean) == write_pages(plain)


HEAD = "<!DOCTYPE html><html><head><style>{css}</style></head><body>{body}</body></html>"


def test_style_attributes_become_one_class_rule_each_above_every_selector():
    body = ('<div class="a b" style="color: red"><span style="color: red">x</span>'
            '<p data-x="1" style="top: 1em" class="c">y</p><br/></div>')
    moved = shared_styles(HEAD.format(css=".a .b .c p { color: blue }", body=body))
    assert "style=" not in moved.split("<body", 1)[1]
    assert f'<div class="{PREFIX}0 a b">' in moved  # the template's last class stays last
    assert f'<span class="{PREFIX}0">' in moved and f'<p data-x="1" class="{PREFIX}1 c">' in moved
    assert f"{('.' + PREFIX + '0') * 4} {{ color: red }}" in moved  # 4 classes beat the sheet's 3


@pytest.mark.parametrize("css, body", [
    ("#card .a { color: blue }", '<div class="a" style="color: red">x</div>'),  # an id outranks an attribute
    ("@media print { #x { top: 0 } }", '<div style="color: red">x</div>'),
    (".a { color: blue }", "<div style='color: red'>x</div>"),  # only double-quoted attributes move
    (".a { color: blue }", '<div class="a" style="color: red" class="b">x</div>'),
])
def test_html_that_could_style_differently_is_left_as_it_is(css, body):
    html = HEAD.format(css=css, body=body)
    assert shared_styles(html) == html


def test_inline_svg_keeps_its_own_style_attributes():
    body = '<svg><rect style="fill: red"/></svg><div style="color: red">x</div>'
    moved = shared_styles(HEAD.format(css=".a { color: blue }", body=body))
    assert '<rect style="fill: red"/>' in moved and f'<div class="{PREFIX}0">' in moved


def test_documents_with_footnotes_or_list_items_get_weasyprints_own_stylesheet():
    from weasyprint import HTML

    assert card_html_class(HEAD.format(css=".n { float: footnote }", body="")) is HTML
    assert card_html_class(HEAD.format(css=".n { display: list-item }", body="")) is HTML
    assert issubclass(card_html_class(HEAD.format(css=".a { color: red }", body="")), HTML)
