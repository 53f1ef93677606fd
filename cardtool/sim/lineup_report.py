"""The balance report of a run over several line-ups (`simulate --lineups`): one page whose summary
names only the findings robust to the bots, a robustness table with each finding's evidence per
line-up, then each line-up's own sections; summary.json with a block per line-up and the robustness
findings; cards.csv with a row per card and line-up; games.jsonl whose every line says its line-up.

Built on cardtool.sim.balance_report (each line-up's sections) and cardtool.sim.robustness.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardtool.sim import outputs
from cardtool.sim.analysis import Analysis
from cardtool.sim.balance_report import PAGE_TITLE, cards_csv, ending_counts, simulation_context, summary_json
from cardtool.sim.robustness import FRAGILE, ROBUST, Finding, finding_json, findings, robust_lines


@dataclass(frozen=True)
class LineupRun:
    """One line-up's part of the run: its label, its analysis, its configuration and how it went."""

    label: str
    analysis: Analysis
    config: Mapping
    run: Mapping


def games_lines(label: str, records) -> str:
    """games.jsonl lines of one line-up, each starting with its line-up."""
    return "".join(json.dumps({"lineup": label, **record.to_json()}, separators=(",", ":")) + "\n"
                   for record in records)


def page_config(runs: Sequence[LineupRun]) -> dict:
    """The run's configuration: the first line-up's, with every line-up and its bots."""
    return {**runs[0].config, "lineups": [{"label": r.label, "bots": list(r.config["bots"])} for r in runs]}


def page_run(runs: Sequence[LineupRun]) -> dict:
    first = runs[0].run
    return {**first, "finished_games": sum(r.run["finished_games"] for r in runs),
            "interrupted": any(r.run["interrupted"] for r in runs)}


def summary_lines(runs: Sequence[LineupRun], found: Sequence[Finding]) -> list[str]:
    """The summary at the top: how the games went, then the robust findings only."""
    lines = [f"{len(runs)} line-ups, " + "; ".join(f"{r.label}: {r.analysis.games} games ({ending_counts(r.analysis)})"
                                                   for r in runs) + "."]
    robust = robust_lines(found)
    lines += robust or ["No finding is robust: none holds, in the same direction, under every line-up."]
    fragile = sum(1 for f in found if f.verdict == FRAGILE)
    if fragile:
        lines.append(f"{fragile} fragile finding(s) hold under some line-ups only (or in opposite directions); "
                     "the robustness table shows them with their evidence. They are not findings about the deck.")
    return lines


def robustness_context(runs: Sequence[LineupRun], found: Sequence[Finding]) -> dict:
    return {"lineups": [r.label for r in runs], "configs": page_config(runs)["lineups"],
            "rows": [{"claim": f.claim[:1].upper() + f.claim[1:], "verdict": f.verdict,
                      "evidence": [{"text": e.text, "significant": e.significant} for e in f.evidence]}
                     for f in found]}


def lineup_files(runs: Sequence[LineupRun], records_of: Sequence | None) -> dict[str, str | bytes]:
    """Every output of a run over several line-ups, in memory; `records_of` gives each line-up's
    records for games.jsonl (None: the run streamed its games.jsonl already)."""
    found = findings([r.label for r in runs], [r.analysis for r in runs])
    contexts = [simulation_context(r.analysis, r.config, r.run) for r in runs]
    parts = [outputs.render_html("sim/_run.html.j2", {**c, "lineup": r.label, "h": 3}) for r, c in zip(runs, contexts)]
    printed = [outputs.render_html("sim/_run.html.j2", {**c, "lineup": r.label, "h": 3, "pdf": True})
               for r, c in zip(runs, contexts)]
    config, run = page_config(runs), page_run(runs)
    first = contexts[0]
    page = {**first, "title": f"{PAGE_TITLE}: {config['deck_name']}", "config": config, "run": run,
            "games": sum(r.analysis.games for r in runs), "games_each": config["games"],
            "findings": summary_lines(runs, found), "robustness": robustness_context(runs, found), "runs": parts}
    html = outputs.render_html("sim/report.html.j2", page)
    pdf = outputs.render_pdf(outputs.render_html("sim/report.html.j2", {**page, "runs": printed, "pdf": True}))
    summary = {"config": config, "run": run,
               "lineups": [{"lineup": r.label, **summary_json(r.analysis, r.config, r.run)} for r in runs],
               "robustness": {"rule": "robust: the same sign and significant under every line-up; fragile: "
                                      "significant under some; game length: robust when no line-up's mean "
                                      "length differs significantly from another's",
                              "findings": [finding_json(f) for f in found]}}
    csv_text = "".join(_csv_with_lineup(r.label, cards_csv(r.analysis), header=(i == 0)) for i, r in enumerate(runs))
    files: dict[str, str | bytes] = {}
    if records_of is not None:
        files["games.jsonl"] = "".join(games_lines(r.label, records) for r, records in zip(runs, records_of))
    files.update({"summary.json": json.dumps(summary, indent=2) + "\n", "cards.csv": csv_text,
                  "report.html": html, "report.pdf": pdf})
    return files


def _csv_with_lineup(label: str, text: str, header: bool) -> str:
    import csv
    import io

    rows = list(csv.reader(io.StringIO(text)))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if header and rows:
        writer.writerow(["lineup", *rows[0]])
    for row in rows[1:]:
        writer.writerow([label, *row])
    return out.getvalue()


def terminal_table(found: Sequence[Finding], labels: Sequence[str], width: int = 80, cards: int = 8) -> list[str]:
    """The robustness table for the terminal: a line per finding shown under some line-up, with its
    deviation (or rate) per line-up, * where significant, and its verdict; card findings (there may be
    dozens) up to `cards` lines, robust ones first, the rest counted."""
    shown = [f for f in found if f.verdict in (ROBUST, FRAGILE)]
    card_rows = [f for f in shown if f.kind in ("card", "never")]
    shown = [f for f in shown if f not in card_rows] + card_rows[:cards]
    left = card_rows[cards:]
    lines = [f"Robustness over {len(labels)} line-ups (robust: same sign and significant under every line-up; "
             "* significant):"]
    if not shown:
        return lines + ["  no finding under any line-up"]
    column = 11
    name_width = max(12, width - 2 - (column + 1) * len(labels) - 9)
    lines.append("  " + "finding".ljust(name_width) + "".join(f" {label[:column]:>{column}}" for label in labels)
                 + "  verdict")
    for f in shown:
        claim = f.short if len(f.short) <= name_width else f.short[:name_width - 1] + "…"
        cells = "".join(f" {_cell(e):>{column}}" for e in f.evidence)
        lines.append("  " + claim.ljust(name_width) + cells + f"  {f.verdict}")
    if left:
        robust = sum(1 for f in left if f.verdict == ROBUST)
        lines.append(f"  (and {len(left)} more card finding(s), {robust} robust, {len(left) - robust} fragile: "
                     "see the report)")
    return lines


def _cell(evidence) -> str:
    d = evidence.difference
    if d is not None:
        text = f"{100 * d.estimate:+.1f}pp"
    elif evidence.text.startswith("median"):
        text = evidence.text.split(",")[0].replace("median ", "med ")
    else:
        text = "yes" if evidence.significant else "no"
    return text + ("*" if evidence.significant else " ")

