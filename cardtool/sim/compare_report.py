"""The outputs of `cardtool compare`: report.html and report.pdf, summary.json, comparison.csv and
the two decks' games.jsonl, every number already worded and every chart already drawn.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping

from cardtool.sim import charts, outputs
from cardtool.sim.records import to_jsonl
from cardtool.sim.stats import Rate
from cardtool.sim.wording import csv_number as _f, diff_json, p_text, points_diff, rate_diff, seat_names


def _row_json(row) -> dict:
    return {"metric": row.metric, "a": row.a, "b": row.b, "difference_b_minus_a": diff_json(row.difference),
            "kind": row.kind}


def _row_context(row) -> dict:
    diff = rate_diff(row.difference) if row.kind == "rate" else points_diff(row.difference)
    return {"metric": row.metric, "a": row.a, "b": row.b, "difference": diff, "p": p_text(row.difference.p),
            "significant": row.difference.significant}


def comparison_context(comparison, config_a: Mapping, config_b: Mapping, run_a: Mapping, run_b: Mapping) -> dict:
    """Everything compare.html.j2 shows, worded and drawn."""
    a, b = comparison.a, comparison.b
    name = a.spec.score_name
    labels = (f"A: {config_a['deck']}", f"B: {config_b['deck']}")
    seats = [s.capitalize() for s in seat_names(a.players)]
    significant = [row for row in comparison.metrics + comparison.cards if row.difference.significant]
    mean_curve = [(labels[0], [sum(row) / len(row) for row in a.curve]),
                  (labels[1], [sum(row) / len(row) for row in b.curve])]
    return {
        "title": f"Comparison: {config_a['deck_name']} against {config_b['deck_name']}",
        "config": config_a, "config_b": config_b, "run": run_a, "run_b": run_b, "labels": labels,
        "score_name": name, "score_title": name[:1].upper() + name[1:], "pairs": comparison.games,
        "significant": [_row_context(row) for row in significant],
        "metrics": [_row_context(row) for row in comparison.metrics],
        "cards": [_row_context(row) for row in comparison.cards], "impact_event": a.spec.impact_event,
        "seat_chart": charts.rates(seats, [(labels[0], a.seats), (labels[1], b.seats)]),
        "bot_chart": charts.rates(list(a.bots), [(labels[0], list(a.bots.values())),
                                                 (labels[1], [b.bots.get(k, Rate(0, 0, 0, 1)) for k in a.bots])])
        if len(a.bots) > 1 else "",
        "length_chart": charts.histogram([(labels[0], a.lengths), (labels[1], b.lengths)], xlabel="turns"),
        "score_chart": charts.histogram([(labels[0], [s for seat in a.scores for s in seat]),
                                         (labels[1], [s for seat in b.scores for s in seat])], xlabel=name),
        "curve_chart": charts.curves(mean_curve, xlabel="round", ylabel=f"mean {name} per seat")
        if a.curve and b.curve else "",
    }


def comparison_files(records_a, records_b, comparison, config_a: Mapping, config_b: Mapping,
                     run_a: Mapping, run_b: Mapping) -> dict[str, str | bytes]:
    """Every output of a comparison, in memory."""
    context = comparison_context(comparison, config_a, config_b, run_a, run_b)
    html = outputs.render_html("sim/compare.html.j2", context)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["table", "metric", "a", "b", "difference_b_minus_a", "low", "high", "p", "significant"])
    for table, rows in (("metrics", comparison.metrics), ("cards", comparison.cards)):
        for row in rows:
            d = row.difference
            writer.writerow([table, row.metric, row.a, row.b, _f(d.estimate), _f(d.low), _f(d.high), _f(d.p),
                             int(d.significant)])
    summary = {"a": {"config": dict(config_a), "run": dict(run_a)}, "b": {"config": dict(config_b), "run": dict(run_b)},
               "paired_games": comparison.games, "metrics": [_row_json(r) for r in comparison.metrics],
               "cards": [_row_json(r) for r in comparison.cards]}
    return {"games-a.jsonl": to_jsonl(records_a), "games-b.jsonl": to_jsonl(records_b),
            "summary.json": json.dumps(summary, indent=2) + "\n", "comparison.csv": out.getvalue(),
            "report.html": html, "report.pdf": outputs.render_pdf(html)}
