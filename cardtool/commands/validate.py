"""`cardtool validate`: check decks and report every problem with its location."""

from __future__ import annotations

import argparse
import json

from cardtool.deck.loader import load
from cardtool.issues import Report

NAME = "validate"
FORMATS = ("text", "json", "github", "junit", "sarif")
HELP = "check decks against their schemas and rules and report every problem found"
EXAMPLES = """\
examples:
  cardtool validate decks/ecologies-bizarre-biomes
  cardtool validate decks/* --strict          # warnings fail too (for CI)
  cardtool validate decks/symbiosis --format json
  cardtool validate decks/* --format github   # annotations in a GitHub Actions job
  cardtool validate decks/* --format junit > validate.xml
  cardtool validate decks/* --format sarif > validate.sarif
  cardtool validate decks/frozen-and-deep                # an expansion: combined and alone
  cardtool validate decks/frozen-and-deep --standalone   # only as a stand-alone game
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("decks", nargs="+", metavar="DECK", help="deck folder (or its deck.yaml)")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="output format (default text): json for other tools; github (workflow annotations), "
                             "junit (JUnit XML) or sarif (SARIF 2.1.0) for CI, see docs/ci.md")
    parser.add_argument("--standalone", action="store_true",
                        help="check expansions only as stand-alone games (their own cards alone); "
                             "by default they are checked combined with their bases, and alone for information")


def _checks(deck: str, standalone_only: bool) -> list[tuple[str, Report, bool]]:
    """(label, report, counts toward the verdict) for each way a deck is checked."""
    combined = load(deck, standalone=standalone_only)
    if combined.deck is not None and combined.report.ok:  # colours alike to colour-blind players (H8)
        from cardtool.render.colour_vision import check_palette
        from cardtool.render.icons import check_icon_tokens

        check_palette(combined.deck, combined.source, combined.report)
        check_icon_tokens(combined.deck, combined.source, combined.report)  # `:P:` tokens name known icons
    if combined.deck is not None and combined.report.ok:  # text that cannot fit even at its floor
        from cardtool.render.print_checks import check_text_floors

        check_text_floors(combined.deck, combined.source, combined.report)
    _check_directives(combined)
    manifest = combined.source.manifest if combined.source else None
    if manifest is None or not manifest.extends:
        return [(deck, combined.report, True)]
    if standalone_only:
        return [(f"{deck} (alone)", combined.report, True)]
    alone = load(deck, standalone=True)
    bases = ", ".join(manifest.extends)
    return [(f"{deck} (combined with {bases})", combined.report, True),
            (f"{deck} (alone, for information)", alone.report, False)]


def _check_directives(result) -> None:
    """The rulebook's ```cardtool:NAME``` blocks, checked as `render rulebook` will use them (a valid deck)."""
    if result.deck is None or not result.report.ok or not result.deck.manifest.rulebook:
        return
    from cardtool.deck.prose import check_directives
    from cardtool.games import GAMES
    from cardtool.games.plugin import ChecksDirectives

    plugin = GAMES[result.deck.game]
    if isinstance(plugin, ChecksDirectives):
        check_directives(result.deck, plugin, result.report)


def run(args: argparse.Namespace) -> int:
    failed = False
    results = []
    for deck in args.decks:
        for label, report, counts in _checks(deck, args.standalone):
            bad = bool(report.errors) or (args.strict and bool(report.warnings))
            failed = failed or (bad and counts)
            results.append((label, report, bad, counts))
            if args.format == "text":
                if report.issues:
                    print(report.format())
                verdict = ("FAILED" if counts else "not a stand-alone game") if bad else "ok"
                print(f"{label}: {len(report.errors)} error(s), {len(report.warnings)} warning(s) - {verdict}")
    if args.format in ("github", "junit", "sarif"):
        from cardtool import __version__, issueformats

        checked = [issueformats.Checked(label, report, counts, args.strict) for label, report, _, counts in results]
        writer = {"github": issueformats.github, "junit": issueformats.junit,
                  "sarif": lambda c: issueformats.sarif(c, __version__)}[args.format]
        print(writer(checked))
    if args.format == "json":
        print(json.dumps([
            {"deck": label, "ok": not bad, "errors": len(report.errors), "warnings": len(report.warnings),
             "issues": json.loads(report.to_json())}
            for label, report, bad, _ in results], indent=2))
    return 1 if failed else 0
