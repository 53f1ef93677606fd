"""`cardtool validate`: check decks and report every problem with its location."""

from __future__ import annotations

import argparse
import json

from cardtool.deck.loader import load
from cardtool.report import Report

NAME = "validate"
HELP = "check decks against their schemas and rules and report every problem found"
EXAMPLES = """\
examples:
  cardtool validate decks/ecologies-bizarre-biomes
  cardtool validate decks/* --strict          # warnings fail too (for CI)
  cardtool validate decks/symbiosis --format json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("decks", nargs="+", metavar="DECK", help="deck folder (or its deck.yaml)")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")


def run(args: argparse.Namespace) -> int:
    failed = False
    results = []
    for deck in args.decks:
        report: Report = load(deck).report
        bad = bool(report.errors) or (args.strict and bool(report.warnings))
        failed = failed or bad
        results.append((deck, report))
        if args.format == "text":
            if report.issues:
                print(report.format())
            verdict = "FAILED" if bad else "ok"
            print(f"{deck}: {len(report.errors)} error(s), {len(report.warnings)} warning(s) - {verdict}")
    if args.format == "json":
        print(json.dumps([
            {"deck": deck, "ok": not (report.errors or (args.strict and report.warnings)),
             "errors": len(report.errors), "warnings": len(report.warnings),
             "issues": json.loads(report.to_json())}
            for deck, report in results], indent=2))
    return 1 if failed else 0
