"""The balance report, the outputs of `cardtool simulate`: games.jsonl, summary.json, cards.csv,
report.html and report.pdf.

The report's context is built here, every number already worded and every chart already drawn, so
the template only lays it out. Everything is made in memory first and written at the end, each file
atomically: a run that fails leaves the previous outputs as they were.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from cardtool.csvtext import spreadsheet_text
from cardtool.sim import charts, outputs
from cardtool.sim.analysis import Analysis
from cardtool.sim.records import to_jsonl
from cardtool.sim.wording import (csv_number as _f, diff_json, json_number as _j, number, p_text, percent,
                                  rate_diff, rate_json, rate_text, seat_names)

if TYPE_CHECKING:
    from cardtool.sim.runner import RunResult

PAGE_TITLE = "Balance report"
#: The PDF's card table keeps the flagged cards and this many with the highest and the lowest difference.
PDF_EXTREMES = 5


# -- the report

def simulation_context(analysis: Analysis, config: Mapping, run: Mapping) -> dict:
    """Everything report.html.j2 shows, worded and drawn."""
    a = analysis
    name = a.spec.score_name
    seats = seat_names(a.players)
    first = a.first_player
    who = "the first seat's team" if a.teams else "the first seat"
    verdict = (f"no evidence that {who} is favoured or handicapped" if not first.significant else
               f"{who} is favoured" if first.estimate > 0 else f"{who} is handicapped")
    side_word = "team" if a.teams else "seat"
    context = {
        "title": f"{PAGE_TITLE}: {config['deck_name']}",
        "config": config, "run": run, "score_name": name, "score_title": name[:1].upper() + name[1:],
        "findings": _findings(a, verdict), "games": a.games,
        "interval_name": "95% confidence sequences" if run.get("sequential") else "95% Wilson intervals",
        "teams": a.teams, "side_word": side_word,
        "seats": [{"name": side.name.capitalize(), "rate": rate_text(side.win), "wins": side.win.k,
                   "score": number(side.score.mean), "median": number(side.score.median)} for side in a.sides],
        "capped_row": {"rate": rate_text(a.capped), "games": a.capped.k},
        "endings": [{"reason": e.reason.word, "text": e.reason.text, "games": e.games.k, "rate": rate_text(e.games),
                     "cap": e.reason.cap} for e in a.endings],
        "average_seat": percent(a.average_seat),
        "seat_chart": charts.rates([side.name.capitalize() for side in a.sides], [("", [side.win for side in a.sides])],
                                   reference=a.average_seat, reference_label=f"average {side_word}"),
        "first": {"rate": rate_text(a.sides[0].win) if a.sides else "–", "average": percent(a.average_seat),
                  "difference": rate_diff(first), "p": p_text(first.p), "significant": first.significant,
                  "verdict": verdict, "who": a.sides[0].name if a.sides else "seat 1"},
        "bots": [{"name": bot, "rate": rate_text(r), "seats": r.n, "wins": r.k, "score": number(a.bot_scores[bot].mean)}
                 for bot, r in a.bots.items()],
        "bot_rule": BOT_RATE_RULE,
        "bot_chart": charts.rates(list(a.bots), [("", list(a.bots.values()))]) if len(a.bots) > 1 else "",
        "length": {"median": number(a.length.median, 0), "p95": number(a.length.p95, 0),
                   "mean": number(a.length.mean), "min": number(a.length.minimum, 0),
                   "max": number(a.length.maximum, 0), "capped": rate_text(a.capped),
                   "capped_games": a.capped.k, "max_turns": config["max_turns"]},
        "length_chart": charts.histogram([("", a.lengths)], xlabel="turns",
                                         marks=[("median", a.length.median), ("p95", a.length.p95)]),
        "scores": {"winning": number(a.winning_scores.median), "winning_p95": number(a.winning_scores.p95),
                   "shared": a.shared},
        "score_chart": charts.boxes([s.capitalize() for s in seats], a.scores, ylabel=name),
        "curve_chart": charts.curves([(s.capitalize(), [row[i] for row in a.curve]) for i, s in enumerate(seats)],
                                     xlabel="round", ylabel=f"mean {name}") if a.curve else "",
        "biomes": [{"code": b.code, "healthy": rate_text(b.healthy), "median": number(b.turns.median, 0),
                    "p95": number(b.turns.p95, 0)} for b in a.biomes],
        "biome_chart": charts.rates([b.code for b in a.biomes], [("", [b.healthy for b in a.biomes])],
                                    ylabel="games healthy") if a.biomes else "",
        "breakdowns": [{"title": b.title.capitalize(), "rows": [
                           {"category": c.replace("_", " "), "everyone": number(b.everyone[c]),
                            "winners": number(b.winners[c])} for c in b.categories],
                        "chart": charts.grouped(b.categories, [("every seat", [b.everyone[c] for c in b.categories]),
                                                               ("winners", [b.winners[c] for c in b.categories])],
                                                ylabel=f"mean {name}")} for b in a.breakdowns],
        **_card_context(a),
        "robustness": None, "runs": None, "lineup": "", "h": 2,  # one line-up: no robustness table (lineup_report)
        "pdf": False,  # True for the page the PDF is made from (its card table keeps the cards that matter)
    }
    return context


#: How the per-bot win rate counts, said wherever it is shown (terminal, report, summary.json).
BOT_RATE_RULE = ("games won by a seat the bot played, out of the seats it played; a shared victory (a tie) "
                 "counts as a win for each seat sharing it, a capped game as won by nobody")


def terminal_rates(a: Analysis, interval: str = "95% interval", of: str = "") -> list[str]:
    """The win rates for the terminal: per seat (per team in a team mode) and per bot, each with its
    interval, one per line so they fit 80 columns; `of` names the deck ("deck A") in the headings."""
    import textwrap

    side_word = "team" if a.teams else "seat"
    heading = f"Win rate{' of ' + of if of else ''} per"
    lines = [f"{heading} {side_word} ({interval}):"]
    width = max((len(side.name) for side in a.sides), default=0)
    for side in a.sides:
        lines.append(f"  {side.name:<{width}}  {side.win.k:>6}/{side.win.n:<6}  {rate_text(side.win)}")
    if a.bots:
        lines.append(f"{heading} bot ({interval}):")
        width = max(len(name) for name in a.bots)
        for name, rate in a.bots.items():
            lines.append(f"  {name:<{width}}  {rate.k:>6}/{rate.n:<6}  {rate_text(rate)}")
        lines += textwrap.wrap(f"(a bot's rate: {BOT_RATE_RULE})", 78, initial_indent="  ", subsequent_indent="  ")
    return lines


def ending_counts(a: Analysis) -> str:
    """'188 round-cap, 12 target': the end reasons that happened, most frequent first."""
    happened = sorted((e for e in a.endings if e.games.k), key=lambda e: -e.games.k)
    return ", ".join(f"{e.games.k} {e.reason.word}" for e in happened)


def _findings(a: Analysis, verdict: str) -> list[str]:
    line = f"{a.games} games: {a.finished} ended by the rules, {a.capped.k} stopped by a cap"
    if a.capped.k:
        caps = [e for e in a.endings if e.reason.cap and e.games.k]
        line += (f" ({rate_text(a.capped)}; won by nobody: "
                 + "; ".join(f"{e.games.k} {e.reason.word}, {e.reason.text}" for e in caps) + ")")
    findings = [line + ". How they ended: " + ending_counts(a) + "."]
    if a.sides:
        findings.append(f"{a.sides[0].name.capitalize()} wins {rate_text(a.sides[0].win)} of its games; the average "
                        f"{'team' if a.teams else 'seat'} {percent(a.average_seat)}: {verdict}.")
    if len(a.bots) > 1:
        best = max(a.bots, key=lambda b: a.bots[b].value)
        findings.append(f"The strongest bot is {best}, winning {rate_text(a.bots[best])}.")
    findings.append(f"A game lasts {number(a.length.median, 0)} turns (median); 95% of games end within "
                    f"{number(a.length.p95, 0)}.")
    strong = [c for c in a.cards if c.impact.significant and c.impact.estimate > 0]
    weak = [c for c in a.cards if c.impact.significant and c.impact.estimate < 0]
    if strong:
        findings.append("Seats win more often with " + ", ".join(c.name for c in _top(strong, 5)) + ".")
    if weak:
        findings.append("Seats win less often with " + ", ".join(c.name for c in _top(weak, 5)) + ".")
    if a.never_chosen:
        findings.append(f"{len(a.never_chosen)} card(s) were never {a.spec.choice_event} by any bot: "
                        + ", ".join(c.name for c in a.never_chosen[:8]) + ("…" if len(a.never_chosen) > 8 else "") + ".")
    return findings


def _top(cards, n):
    return sorted(cards, key=lambda c: -abs(c.impact.estimate))[:n]


def _card_context(a: Analysis) -> dict:
    spec = a.spec
    if not a.cards:
        return {"cards": [], "card_events": [], "card_chart": "", "pdf_card_chart": "", "never": [], "impact_event": "",
                "choice_event": "", "pdf_cards": 0}
    ordered = sorted(a.cards, key=lambda c: (math.isnan(c.impact.estimate), -c.impact.estimate
                                             if not math.isnan(c.impact.estimate) else 0))
    rows = [{"name": c.name, "id": c.id,
             "events": [percent(c.games[e] / a.games, 0) for e in spec.card_events],
             "with": rate_text(c.win_when[spec.impact_event]), "without": rate_text(c.win_without),
             "difference": rate_diff(c.impact), "p": p_text(c.impact.p), "significant": c.impact.significant,
             "never": c.never_chosen,
             # the PDF's table: the cards that matter, the rest being in report.html and cards.csv
             "in_pdf": c.impact.significant or c.never_chosen or not PDF_EXTREMES <= index < len(ordered) - PDF_EXTREMES}
            for index, c in enumerate(ordered)]
    printed = [c for c, row in zip(ordered, rows) if row["in_pdf"]]
    return {"cards": rows, "card_events": list(spec.card_events), "card_chart": _card_chart(ordered, spec),
            # the PDF's chart shows the cards its table lists: a row of a chart costs the PDF as much as a line of text
            "pdf_card_chart": _card_chart(printed, spec),
            "pdf_cards": sum(1 for row in rows if row["in_pdf"]),
            "never": [c.name for c in a.never_chosen], "impact_event": spec.impact_event,
            "choice_event": spec.choice_event}


def _card_chart(cards, spec) -> str:
    return charts.forest([c.name for c in cards], [c.impact.estimate for c in cards], [c.impact.low for c in cards],
                         [c.impact.high for c in cards], [c.impact.significant for c in cards],
                         xlabel=f"win rate when {spec.impact_event} minus when not")


# -- the machine-readable outputs

def cards_csv(analysis: Analysis) -> str:
    """cards.csv: one row per card, every number the card table shows."""
    spec = analysis.spec
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["card", "name"]
    for event in spec.card_events:
        header += [f"{event}_games", f"{event}_per_game", f"win_rate_when_{event}", f"seats_{event}"]
    header += [f"win_rate_not_{spec.impact_event}", "difference", "difference_low", "difference_high", "p",
               "significant", f"never_{spec.choice_event}"]
    writer.writerow(header)
    for c in analysis.cards:
        row = [c.id, spreadsheet_text(c.name)]
        for event in spec.card_events:
            rate = c.win_when[event]
            row += [c.games[event], _f(c.per_game[event]), _f(rate.value), rate.n]
        row += [_f(c.win_without.value), _f(c.impact.estimate), _f(c.impact.low), _f(c.impact.high), _f(c.impact.p),
                int(c.impact.significant), int(c.never_chosen)]
        writer.writerow(row)
    return out.getvalue()


def summary_json(analysis: Analysis, config: Mapping, run: Mapping) -> dict:
    """summary.json: the effective configuration, how the run went, and the headline statistics."""
    a = analysis
    return {
        "config": dict(config), "run": dict(run),
        "games": a.games, "finished": a.finished, "capped": rate_json(a.capped), "shared_wins": a.shared,
        "end_reasons": {e.reason.word: {"games": e.games.k, "rate": _j(e.games.value),
                                        "ci95": [_j(e.games.low), _j(e.games.high)], "cap": e.reason.cap,
                                        "text": e.reason.text} for e in a.endings},
        "seats": [{"seat": i + 1, "win": rate_json(r), "mean_score": _j(s.mean), "median_score": _j(s.median)}
                  for i, (r, s) in enumerate(zip(a.seats, a.seat_scores))],
        **({"teams": [{"seats": [seat + 1 for seat in side.seats], "win": rate_json(side.win),
                       "mean_score": _j(side.score.mean)} for side in a.sides]} if a.teams else {}),
        "average_seat_win_rate": _j(a.average_seat), "first_player_advantage": diff_json(a.first_player),
        "bots": {name: {"win": rate_json(r), "seats_played": r.n, "mean_score": _j(a.bot_scores[name].mean)}
                 for name, r in a.bots.items()},
        "bot_win_rule": BOT_RATE_RULE,
        "length": {"median": _j(a.length.median), "p95": _j(a.length.p95), "mean": _j(a.length.mean),
                   "min": _j(a.length.minimum), "max": _j(a.length.maximum)},
        "winning_score": {"median": _j(a.winning_scores.median), "p95": _j(a.winning_scores.p95)},
        "curve": [[_j(x) for x in row] for row in a.curve],
        "biomes": {b.code: {"healthy": rate_json(b.healthy, "healthy_games"), "median_turn": _j(b.turns.median),
                            "p95_turn": _j(b.turns.p95)} for b in a.biomes},
        "breakdowns": {b.title: {"every_seat": {c: _j(v) for c, v in b.everyone.items()},
                                 "winners": {c: _j(v) for c, v in b.winners.items()}} for b in a.breakdowns},
        f"never_{a.spec.choice_event or 'chosen'}": [c.id for c in a.never_chosen],
        "spec": a.spec.to_json(),
    }


def run_json(result: "RunResult") -> dict:
    return {"finished_games": result.games, "interrupted": result.interrupted,
            "seconds": round(result.seconds, 3), "games_per_second": round(result.games_per_second, 1),
            "where": result.where}


def simulation_files(records, analysis: Analysis, config: Mapping, run: Mapping) -> dict[str, str | bytes]:
    """Every output of a simulation, in memory; without records (None), no games.jsonl (for a run
    that streamed its games.jsonl already)."""
    context = simulation_context(analysis, config, run)
    html = outputs.render_html("sim/report.html.j2", context)
    pdf = outputs.render_pdf(outputs.render_html("sim/report.html.j2", {**context, "pdf": True}))
    return {**({"games.jsonl": to_jsonl(records)} if records is not None else {}),
            "summary.json": json.dumps(summary_json(analysis, config, run), indent=2) + "\n",
            "cards.csv": cards_csv(analysis), "report.html": html, "report.pdf": pdf}


