"""`cardtool balance`: search card values by simulation until the deck meets its balance targets."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from cardtool.commands.common import add_deck_argument
from cardtool.errors import DeckError, UsageError
from cardtool.issues import Report

NAME = "balance"
HELP = "search card values by simulation until the deck meets its balance targets, then check them on fresh seeds"
EXAMPLES = """\
examples:
  cardtool balance decks/symbiosis --tune decks/symbiosis/tuning.yaml
  cardtool balance decks/symbiosis --tune decks/symbiosis/tuning.yaml --budget 15m --out /tmp/tuned
  cardtool balance decks/symbiosis --tune my-tuning.yaml --budget 40000      # games, all candidates together

  cardtool balance decks/symbiosis --tune decks/symbiosis/tuning.yaml --deck-out decks/symbiosis-tuned
  cardtool balance decks/symbiosis --tune decks/symbiosis/tuning.yaml --apply   # into the deck's own YAML
  cardtool balance decks/symbiosis --tune decks/symbiosis/tuning.yaml --check-only   # the deck as it is

The search resumes when run again with the same deck, tuning file and --out (Ctrl-C stops it; the
candidates played are kept). Outputs in --out (default build/<deck-id>/balance/): overrides.yaml (the
chosen values as an expansion's overrides), report.md and balance.json (every target before and after,
on fresh seeds, under each line-up of the tuning file). --deck-out DIR also writes a deck there that
applies the values to the original: play, simulate, build or `cardtool diff` it. --apply writes them
into the deck's own card files instead (comments and layout kept; nothing written if the deck would not
validate). --check-only plays no search: it measures the deck as it is against the targets, on the
check's fresh seed under each of its line-ups, writes report.md and balance.json (default --out
build/<deck-id>/balance-check/), and exits 1 when a target's estimate lies outside under some line-up
(0 when every one is met or likely met).
"""
WORK = ".cardtool-balance"  # the search's journal, kept between runs (a hidden folder of --out)
MADE_BY = "# Made by `cardtool balance`"  # the first line of a deck --deck-out wrote, which a new run may replace


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_deck_argument(parser)
    parser.add_argument("--tune", required=True, type=Path, metavar="TUNING.yaml",
                        help="what may change and the targets (schemas/tuning.schema.json, docs/balance.md)")
    parser.add_argument("--budget", metavar="GAMES|TIME",
                        help="games for the whole search (default 20000), or a time such as 90s, 15m, 2h")
    parser.add_argument("--out", type=Path, metavar="DIR",
                        help="output folder (default build/<deck-id>/balance/, or balance-check/ with --check-only)")
    parser.add_argument("--jobs", type=int, metavar="J", help="worker processes (default: every core)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="play on a Dask cluster instead")
    parser.add_argument("--deck-out", type=Path, metavar="DIR",
                        help="also write a deck that applies the chosen values (a new folder, or one balance wrote)")
    parser.add_argument("--apply", action="store_true",
                        help="write the chosen values into the deck's own card files (comments kept; put back if invalid)")
    parser.add_argument("--no-check", action="store_true",
                        help="skip the before/after check on fresh seeds (the report then says so)")
    parser.add_argument("--check-only", action="store_true",
                        help="no search: measure the deck as it is against the targets on the check's fresh seed, "
                             "under every line-up (exit 1 if a target is missed under one)")


def run(args: argparse.Namespace) -> int:
    from cardtool.balance.check import check
    from cardtool.balance.params import overrides, overrides_yaml, parameters, write_deck
    from cardtool.balance.play import Player
    from cardtool.balance.report import balance_json, report_md, terminal
    from cardtool.balance.search import Budget, search, study_name
    from cardtool.balance.tuning import read_tuning
    from cardtool.deck.loader import load
    from cardtool.render.output import check_out_folder, staged_dir
    from cardtool.sim.config import deck_hash
    from cardtool.sim.runner import check_jobs

    if args.check_only:
        given = [flag for flag, value in (("--budget", args.budget), ("--deck-out", args.deck_out),
                                          ("--apply", args.apply), ("--no-check", args.no_check)) if value]
        if given:
            raise UsageError(f"--check-only searches nothing and changes nothing: drop {', '.join(given)}")
    budget = Budget.parse(args.budget or "20000")
    if args.jobs is not None:
        check_jobs(args.jobs)
    report = Report()
    tuning = read_tuning(args.tune, report)
    if tuning is None:
        raise DeckError(f"tuning file {args.tune} has errors", report)
    loaded = load(Path(args.deck), standalone=args.standalone)
    if loaded.deck is None or not loaded.report.ok:
        raise DeckError(f"deck {args.deck} has errors; fix them before balancing it", loaded.report)
    params = parameters(tuning, loaded.source, report)
    check_events(tuning, loaded.deck, report)
    if not report.ok:
        raise DeckError(f"tuning file {args.tune} does not fit deck {args.deck}", report)
    deck = loaded.deck
    out = args.out or Path("build") / deck.manifest.id / ("balance-check" if args.check_only else "balance")
    check_out_folder(out, reads=(Path(args.deck),))
    if args.deck_out is not None:
        check_deck_out(args.deck_out)
    say = lambda line: print(line, flush=True)  # noqa: E731
    if args.check_only:
        return check_only(tuning, loaded, out, Path(args.deck), args, say)
    try:
        (out / WORK).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot write to --out {out}: {exc.strerror or exc}") from None
    with tempfile.TemporaryDirectory(prefix="cardtool-balance-") as scratch:
        player = Player(tuning, Path(args.deck), loaded.source, params, Path(scratch), args.jobs, args.scheduler)
        say(f"balancing {deck.manifest.name}: {len(params)} values may change ({', '.join(p.name for p in params)})")
        try:
            outcome = search(player, out / WORK, budget, study_name(tuning.text, deck_hash(args.deck)), say)
        except KeyboardInterrupt:
            say(f"interrupted: run the same command again to resume the search (kept in {out / WORK})")
            return 130
        tuned = player.deck(outcome.best.values, Path(scratch) / "tuned", "tuned")
        checks = [] if args.no_check else check(tuning, deck, tuned, player.kinds, args.jobs, args.scheduler, say,
                                                    player.peers)
    entries = overrides(params, outcome.best.values, loaded.source)
    with staged_dir(out, reads=(Path(args.deck),), command="balance") as stage:
        (stage / "overrides.yaml").write_text(overrides_yaml(entries, params, deck.manifest.name), encoding="utf-8")
        (stage / "balance.json").write_text(balance_json(deck.manifest.id, tuning, outcome, params, checks),
                                            encoding="utf-8")
        (stage / "report.md").write_text(report_md(deck.manifest.name, tuning, outcome, params, checks),
                                         encoding="utf-8")
    for line in terminal(outcome, params, checks):
        say(line)
    if args.deck_out is not None:
        write_deck(args.deck_out, Path(args.deck), loaded.source, entries, "tuned")
        say(f"the tuned deck: {args.deck_out} (cardtool diff {args.deck} {args.deck_out})")
    say(f"{out}/report.md, {out}/balance.json, {out}/overrides.yaml")
    if args.apply:
        return apply(Path(args.deck), params, outcome.best.values, say)
    return 0


def check_events(tuning, deck, report) -> None:
    """card_impact's `event` must be one the deck's game records for its cards."""
    from cardtool.sim.config import simulated_game

    event = tuning.targets.impact_event
    if not event:
        return
    events = simulated_game(deck).card_events
    if event not in events:
        known = ", ".join(events) or "none"
        report.error("schema", f"targets.card_impact.event: {event!r} is not a card event of this game "
                     f"(it records: {known})", location=tuning.targets.impact_where)


def check_only(tuning, loaded, out: Path, deck: Path, args: argparse.Namespace, say) -> int:
    """--check-only: the deck as it is, measured on the check's fresh seed under every line-up; 1 if a
    target's estimate lies outside under some line-up."""
    from cardtool.balance.check import check_deck
    from cardtool.balance.report import deck_check_json, deck_check_md, deck_check_terminal
    from cardtool.balance.targets import card_kinds, peer_groups
    from cardtool.render.output import staged_dir

    source, manifest = loaded.source, loaded.deck.manifest
    say(f"checking {manifest.name} against {tuning.file} (no search)")
    try:
        measured = check_deck(tuning, loaded.deck, card_kinds(source), args.jobs, args.scheduler, say,
                              peer_groups(source, tuning.targets.peers))
    except KeyboardInterrupt:
        say("interrupted: nothing written")
        return 130
    with staged_dir(out, reads=(deck,), command="balance-check") as stage:  # leaves a search's outputs alone
        (stage / "balance.json").write_text(deck_check_json(manifest.id, tuning, measured), encoding="utf-8")
        (stage / "report.md").write_text(deck_check_md(manifest.name, tuning, measured), encoding="utf-8")
    for line in deck_check_terminal(measured):
        say(line)
    say(f"{out}/report.md, {out}/balance.json")
    return 1 if any(m.failing() for m in measured) else 0


def apply(deck: Path, params, values: dict, say) -> int:
    """--apply: the chosen values into the deck's own files; a deck they would make invalid stays as it was."""
    from cardtool.balance.apply import apply_values

    report, written = apply_values(deck, params, values)
    if not report.ok:
        raise DeckError(f"the chosen values were not written into {deck}: nothing changed", report)
    say(f"applied to {deck}: {', '.join(p.name for p in written) or 'nothing to change'} (bump deck.yaml's version; "
        f"`cardtool diff {deck} --rev HEAD` lists the changes for a changelog)")
    return 0


def check_deck_out(folder: Path) -> None:
    """--deck-out: a new or empty folder, or a deck an earlier `cardtool balance` wrote (nothing else)."""
    from cardtool.render.output import deck_folder_around

    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--deck-out {folder} is a file; give a folder for the tuned deck")
    around = deck_folder_around(folder.parent)
    if around is not None:
        raise UsageError(f"--deck-out {folder} lies inside the deck folder {around}: cardtool never writes into a "
                         "deck folder; give a folder beside it")
    if not folder.is_dir() or not any(folder.iterdir()):
        return
    from cardtool.balance.params import NO_CARDS

    manifest = folder / "deck.yaml"
    ours = manifest.is_file() and manifest.read_text(encoding="utf-8", errors="replace").startswith(MADE_BY)
    if not ours or {p.name for p in folder.iterdir()} - {"deck.yaml", NO_CARDS}:
        raise UsageError(f"--deck-out {folder} holds files `cardtool balance` did not write; nothing there is "
                         "replaced: give a new or empty folder")
