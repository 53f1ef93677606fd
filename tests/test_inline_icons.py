"""Inline icons: `:P:`, `:VER:` or `:frog:` in card text and rulebook prose show the game's icon; an unknown
token is a located validate error with a suggestion."""

from __future__ import annotations

import shutil

from cardtool.deck.loader import load, load_deck
from cardtool.issues import Report
from cardtool.render.environment import environment
from cardtool.render.icon_links import icon_urls
from cardtool.render.icons import CODE, TOKEN, check_icon_tokens, icons_in_html, inline_icons, vocabulary
from cardtool.render.rulebook import Slugs, markdown_chapters
from tests.conftest import DECKS


def test_each_game_names_its_icons():
    ecologies = vocabulary(load_deck(DECKS / "frozen-and-deep"))
    for token in ("P", "C1", "C2", "C3", "C4", "SD", "VER", "TUN", "VNT", "biotic", "abiotic", "web", "discard"):
        assert token in ecologies
    assert ecologies["P"].background and ecologies["VER"].text == "Vernal Pool (VER)"
    symbiosis = vocabulary(load_deck(DECKS / "symbiosis"))
    assert {"spring", "winter", "frog", "fish"} <= set(symbiosis) and symbiosis["frog"].background is None


def test_only_free_standing_tokens_count():
    assert [m.group(1) for m in TOKEN.finditer("Eat :P: then :C2:, not a:b:c, 12:30:45 or http://x:y:")] == ["P", "C2"]


def test_text_is_escaped_and_known_tokens_drawn():
    urls = {"P": ("file:///icons/P.svg", "producer (P)", "background: #3f8f3a")}
    html = str(inline_icons("<b>x</b> needs :P: and :Q:", urls))
    assert html.startswith("&lt;b&gt;x&lt;/b&gt; needs <img class=\"icon-inline\" src=\"file:///icons/P.svg\"")
    assert 'alt="producer (P)"' in html and html.endswith("and :Q:")
    assert environment().filters["icons"] is inline_icons  # {{ card.text|icons(urls) }} in a face template
    drawn = str(icons_in_html("<p>a :P: b</p><pre><code>:P:</code></pre><code>:P:</code>", urls))
    assert drawn.count("<img") == 1 and drawn.endswith("<pre><code>:P:</code></pre><code>:P:</code>")


def test_rulebook_prose_draws_the_icons(tmp_path):
    deck = load_deck(DECKS / "ecologies-bizarre-biomes")
    section = tmp_path / "rules.md"
    section.write_text("# Rules\n\nA web needs :P: and :VER: (`:P:` is code).\n", encoding="utf-8")
    [chapter] = markdown_chapters([section], {}, Slugs(), icons=icon_urls(deck))
    assert str(chapter.html).count('class="icon-inline"') == 2 and "<code>:P:</code>" in str(chapter.html)
    assert "roles/P.svg" in str(chapter.html) and "biomes/VER.svg" in str(chapter.html)


def test_an_unknown_token_is_a_located_error_with_a_suggestion(run_cli, tmp_path):
    folder = tmp_path / "deck"
    shutil.copytree(DECKS / "ecologies-bizarre-biomes", folder)
    factors = folder / "factors.yaml"
    text = factors.read_text(encoding="utf-8")
    factors.write_text(text.replace("flavor: Rhizobium turns air into fertiliser in root nodules.",
                                              'flavor: "Feeds :P: and :C5: in root nodules."', 1),
                       encoding="utf-8")
    section = folder / "rulebook" / "3-turn.md"
    section.write_text(section.read_text(encoding="utf-8") + "\nPlay a :SW: card.\n", encoding="utf-8")
    code, out, _ = run_cli("validate", folder)
    assert code == 1
    lines = [line for line in out.splitlines() if CODE in line]
    assert len(lines) == 2, out
    assert "factors.yaml:15:" in lines[0] and "unknown icon :C5: in field 'flavor'" in lines[0]
    assert "3-turn.md:" in lines[1] and "unknown icon :SW:" in lines[1]
    assert "did you mean" in out and ":SWA:" in out


def test_shipped_decks_write_only_known_tokens():
    for name in ("ecologies-bizarre-biomes", "frozen-and-deep", "symbiosis"):
        result = load(DECKS / name)
        report = Report()
        check_icon_tokens(result.deck, result.source, report)
        assert report.issues == []
