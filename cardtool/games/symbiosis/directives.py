"""`cardtool validate` of the Symbiosis rulebook's directives: what `render rulebook` will do with them.

```cardtool:score POSITION.yaml [PLAYER ...]``` must name a position file inside the deck's folders that
scores with this deck, and players it has; ```cardtool:table [MODE ...]``` must name modes that exist.
"""

from __future__ import annotations

from pathlib import Path

from cardtool.deck.containment import HINT, OUTSIDE, Outside, Roots
from cardtool.errors import DeckError
from cardtool.issues import Report
from cardtool.suggest import did_you_mean

NAMES = ("score", "table")


def check_directive(deck, name: str, args, body: str, folder: Path, where, report: Report) -> None:
    if name == "table":
        from cardtool.games.symbiosis.layout import MODES

        for mode in args:
            if mode not in MODES:
                report.error("bad-value", f"cardtool:table: no Symbiosis mode '{mode}' (modes: {', '.join(MODES)})",
                             location=where, hint=did_you_mean(mode, MODES))
        return
    if not args:
        report.error("missing-field", "cardtool:score needs a position file", location=where,
                     hint="```cardtool:score ../examples/worked-example.yaml Emma```")
        return
    roots = Roots.of(*deck.roots) if deck.roots else Roots.of(deck.manifest.root)
    try:
        roots.locate(args[0], folder)
    except Outside as exc:
        report.error(OUTSIDE, f"cardtool:score: position file '{args[0]}' {exc}; it was not read", location=where,
                     hint=HINT)
        return
    path = folder / args[0]
    if not path.is_file():
        report.error("missing-file", f"cardtool:score: no position file '{args[0]}' (looked for {path})",
                     location=where)
        return
    from cardtool.games.symbiosis.position import load_position
    from cardtool.games.symbiosis.table import CardTable

    try:
        position = load_position(path, CardTable.of(deck))
    except DeckError as exc:
        if exc.report is not None:
            report.extend(exc.report)
        report.error("bad-value", f"cardtool:score: the position file '{args[0]}' has errors (listed with it)",
                     location=where)
        return
    unknown = [player for player in args[1:] if player not in position.names]
    if unknown:
        report.error("unknown-ref", f"cardtool:score: no player {', '.join(unknown)} in {args[0]} "
                     f"(players: {', '.join(position.names)})", location=where,
                     hint=did_you_mean(unknown[0], position.names))
