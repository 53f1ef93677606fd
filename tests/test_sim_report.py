"""The analysis and the report: sections driven by the records, charts present, PDF made.

The Ecologies sections are tested on synthetic records shaped as cardtool.games.plugin.GameRecord
documents them, so they work the day the Ecologies engine records its games.
"""

from __future__ import annotations

import random

import pytest

from cardtool.sim.analysis import Spec, analyse
from cardtool.sim.records import CAPPED, FINISHED, SimRecord
from cardtool.sim.balance_report import cards_csv, simulation_context, summary_json
from cardtool.sim.outputs import render_html, render_pdf

CARDS = (("fox", "Red Fox"), ("oak", "Oak"), ("moss", "Moss"), ("wolf", "Grey Wolf"), ("dodo", "Dodo"))
SPEC = Spec(score_name="VP", card_events=("drawn", "played", "destroyed"), impact_event="played",
            choice_event="played", cards=CARDS)
CONFIG = {"deck": "eco-test", "deck_name": "Eco Test", "deck_version": "0.1", "game": "ecologies",
          "game_title": "Ecologies", "standalone": False, "bases": [], "mode": "standard", "players": 2,
          "bots": ["greedy", "random"], "seating": "rotate", "seed": 1, "games": 400, "max_turns": 60,
          "cardtool": "0", "deck_path": "decks/eco-test", "deck_hash": "ab" * 32, "command": "cardtool simulate"}
RUN = {"finished_games": 400, "interrupted": False, "seconds": 1.0, "games_per_second": 400.0, "where": "test"}


def ecologies_like_records(games: int = 400) -> list[SimRecord]:
    """Two seats; whoever plays the wolf mostly wins; nobody ever plays the dodo; a few games are capped."""
    rng = random.Random(1)
    records = []
    for index in range(games):
        drawn = [rng.sample(["fox", "oak", "moss", "wolf", "dodo"], 3) for _ in range(2)]
        played = [[card for card in hand if card != "dodo" and rng.random() < 0.7] for hand in drawn]
        wolf = [seat for seat in range(2) if "wolf" in played[seat]]
        capped = index % 50 == 0
        if capped:
            winners = ()
        elif len(wolf) == 1 and rng.random() < 0.85:
            winners = tuple(wolf)
        else:
            winners = (rng.randrange(2),)
        scores = tuple(12 if seat in winners else rng.randrange(4, 11) for seat in range(2))
        turns = 60 if capped else rng.randrange(18, 40)
        curve = tuple(tuple(round(s * (r + 1) / 6) for s in scores) for r in range(6))
        biomes = {"CAV": rng.choice([None, rng.randrange(5, 30)]), "SWA": rng.randrange(3, 20), "URB": None}
        records.append(SimRecord(index, index, ("greedy", "random")[::1 if index % 2 else -1],
                                 CAPPED if capped else FINISHED, scores, winners, turns, curve,
                                 {"drawn": tuple(map(tuple, drawn)), "played": tuple(map(tuple, played)),
                                  "destroyed": ((), ("oak",) if index % 7 == 0 else ())},
                                 {"biomes": biomes}, "round-cap" if capped else "target"))
    return records


@pytest.fixture(scope="module")
def analysis():
    return analyse(ecologies_like_records(), SPEC)


def test_ecologies_sections_light_up_from_the_records(analysis):
    assert [b.code for b in analysis.biomes] == ["CAV", "SWA", "URB"]
    swa, urb = analysis.biomes[1], analysis.biomes[2]
    assert swa.healthy.k == 400 and 3 <= swa.turns.median < 20
    assert urb.healthy.k == 0
    assert [c.id for c in analysis.never_chosen] == ["dodo"]
    wolf = next(c for c in analysis.cards if c.id == "wolf")
    assert wolf.impact.significant and wolf.impact.estimate > 0.2
    dodo = next(c for c in analysis.cards if c.id == "dodo")
    assert dodo.games["drawn"] > 0 and dodo.games["played"] == 0
    assert analysis.capped.k == 8 and analysis.finished == 392


def test_the_report_renders_with_its_charts(analysis):
    html = render_html("sim/report.html.j2", simulation_context(analysis, CONFIG, RUN))
    for heading in ("How games ended", "Win rate per seat", "First-player advantage", "Win rate per bot", "Game length", "Scores",
                    "VP over the game", "Healthy biomes", "Cards"):
        assert f">{heading}<" in html, heading
    assert html.count("<svg") == 7  # seats, bots, length, scores, curve, biomes, cards
    assert "Never played by any bot: Dodo" in html and "No winner (capped)" in html
    pdf = render_pdf(html)
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000


def test_cards_csv_and_summary(analysis):
    lines = cards_csv(analysis).splitlines()
    assert lines[0].startswith("card,name,drawn_games,drawn_per_game,win_rate_when_drawn")
    assert "never_played" in lines[0] and len(lines) == 1 + len(CARDS)
    assert lines[-1].startswith("dodo,Dodo,") and lines[-1].endswith(",1")
    summary = summary_json(analysis, CONFIG, RUN)
    assert summary["capped"]["wins"] == 8 and summary["never_played"] == ["dodo"]
    assert summary["end_reasons"]["round-cap"]["games"] == 8 and summary["end_reasons"]["target"]["games"] == 392
    assert summary["biomes"]["URB"]["healthy"]["rate"] == 0
    assert set(summary["biomes"]["URB"]["healthy"]) == {"healthy_games", "of", "rate", "ci95"}  # not "wins"
    assert summary["config"]["deck_hash"] == "ab" * 32


def test_a_report_without_game_specific_data_leaves_those_sections_out():
    records = [SimRecord(i, i, ("random", "random"), FINISHED, (1, 2), (1,), 10) for i in range(20)]
    analysis = analyse(records, Spec(score_name="points"))
    html = render_html("sim/report.html.j2", simulation_context(analysis, CONFIG, RUN))
    assert "Healthy biomes" not in html and ">Cards<" not in html
    assert analysis.seats[1].k == 20 and analysis.first_player.estimate == -0.5


def test_the_printed_report_lists_the_cards_that_matter_and_says_so(analysis, monkeypatch):
    """The PDF's card table keeps the significant and never-played cards and the extremes; the HTML keeps all."""
    from cardtool.sim import balance_report

    monkeypatch.setattr(balance_report, "PDF_EXTREMES", 1)
    context = simulation_context(analysis, CONFIG, RUN)
    printed = render_html("sim/report.html.j2", {**context, "pdf": True})
    full = render_html("sim/report.html.j2", context)
    kept = [row["name"] for row in context["cards"] if row["in_pdf"]]
    assert "Grey Wolf" in kept and "Dodo" in kept and len(kept) < len(CARDS)
    dropped = next(row["id"] for row in context["cards"] if not row["in_pdf"])
    assert f'class="note">{dropped}<' in full and f'class="note">{dropped}<' not in printed
    assert f"lists {len(kept)} of the {len(CARDS)} cards" in printed and "lists" not in full.split(">Cards<")[1][:400]


def test_the_printed_page_draws_chart_labels_as_placed_text_and_keeps_the_marks():
    """The PDF's page: a chart becomes a picture of its marks under its labels as HTML text, escaped,
    at the SVG's anchor points; a text the conversion does not know stays in the picture."""
    import base64
    import re

    from cardtool.sim import charts
    from cardtool.sim.report_print import printed_page
    from cardtool.sim.stats import Rate

    svg = charts.forest(["<b>Fox</b> & Co", "Oak"], [0.1, -0.1], [0.0, -0.2], [0.2, 0.0], [True, False], xlabel="diff")
    odd = svg.replace("</svg>", '<text x="1" y="2" transform="scale(2)">kept</text></svg>')
    page = printed_page(f"<html><head><style>p {{}}</style></head><body>{odd}</body></html>")
    assert "<svg" not in page and ".plot span" in page
    assert '">&lt;b&gt;Fox&lt;/b&gt; &amp; Co</span>' in page and '">diff</span>' in page
    picture = base64.b64decode(re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', page).group(1)).decode()
    assert "<circle" in picture and "Fox" not in picture and ">kept</text>" in picture
    label = re.search(r'<span class="end" style="left: (-?[\d.]+)px; top: (-?[\d.]+)px; font-size: 10px', page)
    x, y = next((float(a), float(b)) for a, b in re.findall(r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="end" '
                                                           r'font-size="10"', svg))
    assert float(label.group(1)) == pytest.approx(x - 400, abs=0.1) and float(label.group(2)) < y
    rotated = printed_page(f"<style></style>{charts.rates(['A'], [('', [Rate.of(1, 2)])])}")
    assert 'class="middle up"' in rotated and "transform-origin" in rotated  # the y axis title, turned
